import { AGE_MESSAGES } from "@shared/age";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH } from "@shared/for-parents";
import { longDateTime } from "@shared/dates";
import { placeLine } from "@shared/journey-text";
import type { MeAnswer } from "@shared/me";
import { Link } from "wouter";
import { AgeQuestion } from "../../components/AgeQuestion";
import { ROUTES } from "../../routes";
import { ME_TEXT } from "./content";
import { Fact, Said, Time } from "./parts";
import { ShareBox } from "./ShareBox";
import { invitedAt, type MyPlace } from "./use-my-place";

/**
 * "My place"'s waitlist status: the status and its times, the place in line (or the invitation),
 * joining or resending the confirmation, the referral link, and leaving the waitlist (asked
 * first). The page's state (./use-my-place.ts) runs the requests; this shows them.
 */
export function StatusSection({ me, place, headingId }: { me: MeAnswer; place: MyPlace; headingId: string }) {
  const { busy, refs, actions } = place;
  const invited = invitedAt(me);
  return (
    <section className="me__section" aria-labelledby={headingId}>
      <h2 id={headingId} ref={refs.statusHeading} tabIndex={-1}>
        {ME_TEXT.statusHeading}
      </h2>
      <dl className="me__facts">
        <Fact label={ME_TEXT.statusLabel} className={`me__status me__status--${me.status}`}>
          {invited ? ME_TEXT.invited.status : ME_TEXT.status[me.status]}
        </Fact>
        {me.joined_at && (
          <Fact label={ME_TEXT.joinedAt}>
            <Time iso={me.joined_at} />
          </Fact>
        )}
        {me.confirmed_at && (
          <Fact label={ME_TEXT.confirmedAt}>
            <Time iso={me.confirmed_at} />
          </Fact>
        )}
        {invited && (
          <Fact label={ME_TEXT.invitedAt}>
            <Time iso={invited} />
          </Fact>
        )}
      </dl>

      {invited ? (
        <>
          <p className="me__place">{ME_TEXT.invited.headline}</p>
          <p>{ME_TEXT.invited.text}</p>
          {me.invited_by && <p>{ME_TEXT.invited.lookFor(me.invited_by.subject, longDateTime(me.invited_by.sent_at))}</p>}
        </>
      ) : (
        me.status === "confirmed" && me.position !== null && <p className="me__place">{placeLine(me.position)}</p>
      )}
      {me.status === "none" && <Join me={me} place={place} />}
      {onBehalf(me) && <p>{ME_TEXT.onBehalf}</p>}
      {me.status === "pending" && (
        <>
          <p>{ME_TEXT.pending.text(me.email)}</p>
          <button type="button" className="button button--primary" onClick={actions.resend} disabled={busy !== null}>
            {busy === "resend" ? ME_TEXT.pending.resending : ME_TEXT.pending.resend}
          </button>
        </>
      )}

      <Said success={place.successIn("waitlist")} error={place.errorIn("waitlist")} />

      {/* No share box for an entry a parent made for their child (its link is null); no reward pitch without a boost. */}
      {me.status === "confirmed" && me.referral_link && !onBehalf(me) && (
        <ShareBox
          link={me.referral_link}
          text={me.share.text}
          boost={me.referral_boost}
          pending={me.referrals_pending}
          confirmed={me.referrals_confirmed}
          {...(invited
            ? { heading: ME_TEXT.invited.shareHeading, rule: ME_TEXT.invited.shareRule }
            : me.referral_boost > 0
              ? {}
              : { heading: ME_TEXT.noBoost.shareHeading, rule: ME_TEXT.noBoost.shareRule })}
        />
      )}

      {me.status !== "none" && <Leave place={place} noBoost={me.referral_boost <= 0 || onBehalf(me)} />}
    </section>
  );
}

/** GET /api/me's issue-23 fields (worker/shared/me.ts), read where the answer may come without them. */
type AgeFields = { on_behalf_of_child?: boolean | null };

/** Whether a parent or guardian made the entry for their child. */
const onBehalf = (me: MeAnswer) => (me as MeAnswer & AgeFields).on_behalf_of_child === true;

/**
 * Joining with one click, after the neutral age question (issue 23): nothing is sent until it is
 * answered. Below the consent age a parent or guardian decides first, on the home page's form.
 */
function Join({ me, place }: { me: MeAnswer; place: MyPlace }) {
  const { busy, refs, joinProblem } = place;
  const birthError = joinProblem?.kind === "birth" ? joinProblem : null;
  return (
    <form className="me__join" onSubmit={place.actions.join} noValidate>
      <p>{ME_TEXT.none.text(me.email)}</p>
      <AgeQuestion error={birthError} disabled={busy !== null} monthRef={refs.birthMonth} yearRef={refs.birthYear} />
      {joinProblem?.kind === "parentNeeded" ? (
        <div ref={refs.parentNeeded} tabIndex={-1} className="waitlist__parent" role="alert">
          <p>
            <strong>{AGE_MESSAGES.parentNeeded}</strong>
          </p>
          <ParentPath />
        </div>
      ) : (
        <button type="submit" className="button button--primary" disabled={busy !== null}>
          {busy === "join" ? ME_TEXT.none.joining : ME_TEXT.none.join}
        </button>
      )}
      <p className="waitlist__note">
        <a href={FOR_PARENTS_PATH}>{FOR_PARENTS_LINK}</a>
      </p>
    </form>
  );
}

/** Where a parent or guardian is asked (after AGE_MESSAGES.parentNeeded): the home page's form. */
export function ParentPath() {
  return (
    <>
      <p>{ME_TEXT.none.parentPath}</p>
      <Link href={ROUTES.home}>{ME_TEXT.none.homeLink}</Link>
    </>
  );
}

/** "Leave the waitlist", then the question with its two answers (focus moves to the question, and back). */
function Leave({ place, noBoost }: { place: MyPlace; noBoost: boolean }) {
  const { busy, refs, leaving, focusAfterRender } = place;
  if (!leaving.open) {
    return (
      <button
        ref={refs.leaveButton}
        type="button"
        className="button me__leave"
        disabled={busy !== null}
        onClick={() => {
          leaving.set(true);
          place.clearNotice();
          focusAfterRender(refs.leaveQuestion);
        }}
      >
        {ME_TEXT.leave.button}
      </button>
    );
  }
  return (
    <div className="me__confirm">
      {/* Focused when asked, so the question is read before its buttons. */}
      <p ref={refs.leaveQuestion} tabIndex={-1}>
        {noBoost ? ME_TEXT.leave.questionNoBoost : ME_TEXT.leave.question}
      </p>
      <div className="me__buttons">
        <button type="button" className="button button--danger" onClick={place.actions.leave} disabled={busy !== null}>
          {busy === "leave" ? ME_TEXT.leave.leaving : ME_TEXT.leave.confirm}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy === "leave"}
          onClick={() => {
            leaving.set(false);
            focusAfterRender(refs.leaveButton);
          }}
        >
          {ME_TEXT.leave.cancel}
        </button>
      </div>
    </div>
  );
}
