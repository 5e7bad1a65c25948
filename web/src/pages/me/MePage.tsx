import { type FormEvent, type RefObject, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { longDateTime } from "@shared/dates";
import { placeLine } from "@shared/journey-text";
import type { MeAnswer } from "@shared/me";
import { saveFile } from "../../admin/download";
import { sessionTokens, signOut } from "../../admin/session";
import { useAuth } from "../../auth/auth-context";
import { myPlaceShell } from "../../content";
import { useMounted } from "../../hooks/mounted";
import { loginHref, ROUTES } from "../../routes";
import { createMeApi, type MeApi, MeApiError } from "./api";
import { ME_TEXT } from "./content";
import { ShareBox } from "./ShareBox";
import { SubscriptionSection } from "./SubscriptionSection";
import "./me.css";

/** What the page shows under its heading (the shell's, ../MyPlacePage.tsx). */
type View =
  | { kind: "loading" }
  | { kind: "loaded"; me: MeAnswer }
  | { kind: "loadFailed"; message: string }
  /** The sign-in stopped being valid while the page was open. */
  | { kind: "sessionEnded" };

/** A request in flight, by what it does (its button says so; the others wait). */
type Busy = null | "join" | "resend" | "leave" | "subscription" | "data" | "erase";

/** Where a message goes: under the waitlist's actions, the e-mail subscription, the data download, the deletion form. */
type Area = "waitlist" | "subscription" | "data" | "erase";
type Notice = { area: Area; kind: "success" | "error"; text: string };

/**
 * "My place" (/#/me, issue 16): the signed-in joiner's waitlist status, place, referral link and
 * share buttons, friends who joined, and the actions on their own data. It is the lazily loaded
 * part of ../MyPlacePage.tsx (the default export React.lazy takes).
 *
 * Not signed in: a link to sign in that comes back here. After "Delete everything" the session
 * is ended on this device and the page says what happened, whoever is signed in by then.
 */
export default function MePage() {
  const { email } = useAuth();
  const [erased, setErased] = useState(false);
  const api = useMemo(() => createMeApi(sessionTokens), []);

  if (erased) return <ErasedView />;
  if (email === null) return <SignedOutView text={ME_TEXT.signedOut.text} />;
  // A new key per address: another account signing in (another tab) starts the page afresh.
  return <SignedInPage key={email} api={api} onErased={() => setErased(true)} />;
}

function SignedOutView({ text }: { text: string }) {
  return (
    <div className="me__body">
      <p>{text}</p>
      <a className="button button--primary" href={loginHref(ROUTES.me)}>
        {ME_TEXT.signedOut.link}
      </a>
    </div>
  );
}

/** After the erasure: the session is gone; focus lands on what happened. */
function ErasedView() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="me__body">
      <h2 ref={heading} tabIndex={-1}>
        {ME_TEXT.erase.doneTitle}
      </h2>
      <p role="status">{ME_TEXT.erase.done}</p>
      <Link href={ROUTES.home} className="button">
        {ME_TEXT.erase.home}
      </Link>
    </div>
  );
}

function SignedInPage({ api, onErased }: { api: MeApi; onErased: () => void }) {
  const [view, setView] = useState<View>({ kind: "loading" });
  const [busy, setBusy] = useState<Busy>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const isMounted = useMounted();
  const ids = useId();

  const statusHeading = useRef<HTMLHeadingElement>(null);
  const leaveButton = useRef<HTMLButtonElement>(null);
  const leaveQuestion = useRef<HTMLParagraphElement>(null);
  const eraseButton = useRef<HTMLButtonElement>(null);
  const eraseField = useRef<HTMLInputElement>(null);
  const subscriptionButton = useRef<HTMLButtonElement>(null);
  const subscriptionSaid = useRef<HTMLParagraphElement>(null);
  /** Where focus goes after the next render (an element that render brings). */
  const pendingFocus = useRef<RefObject<HTMLElement | null> | null>(null);

  useEffect(() => {
    const target = pendingFocus.current?.current;
    if (!target || (target as HTMLButtonElement).disabled) return;
    pendingFocus.current = null;
    target.focus();
  });

  const focusAfterRender = (target: RefObject<HTMLElement | null>) => {
    pendingFocus.current = target;
  };

  const load = useCallback(async () => {
    setView({ kind: "loading" });
    try {
      const me = await api.me();
      if (isMounted()) setView({ kind: "loaded", me });
    } catch (error) {
      if (!isMounted()) return;
      if (error instanceof MeApiError && error.failure.kind === "signedOut") setView({ kind: "sessionEnded" });
      else setView({ kind: "loadFailed", message: messageOf(error, ME_TEXT.loadFailed) });
    }
  }, [api, isMounted]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs an action; its failure is said in `area` (a lost session shows the sign-in link instead). */
  async function run(action: Exclude<Busy, null>, area: Area, task: () => Promise<void>) {
    if (busy !== null) return;
    setBusy(action);
    setNotice(null);
    try {
      await task();
    } catch (error) {
      if (!isMounted()) return;
      if (error instanceof MeApiError && error.failure.kind === "signedOut") setView({ kind: "sessionEnded" });
      else setNotice({ area, kind: "error", text: messageOf(error, ME_TEXT.errors.server) });
    } finally {
      if (isMounted()) setBusy(null);
    }
  }

  /** A new answer from the waitlist's actions: shown, said, and focus on the status it changed. */
  function showAnswer(me: MeAnswer, text: string) {
    setView({ kind: "loaded", me });
    setNotice({ area: "waitlist", kind: "success", text });
    focusAfterRender(statusHeading);
  }

  const join = () =>
    run("join", "waitlist", async () => {
      const me = await api.join();
      if (isMounted()) showAnswer(me, ME_TEXT.none.joined);
    });

  const resend = () =>
    run("resend", "waitlist", async () => {
      try {
        await api.resendConfirmation();
        if (isMounted()) setNotice({ area: "waitlist", kind: "success", text: ME_TEXT.pending.resent });
      } catch (error) {
        if (!(error instanceof MeApiError && error.failure.kind === "notPending")) throw error;
        // Confirmed meanwhile (the e-mail's link, another tab): show where the entry stands now.
        const me = await api.me();
        if (isMounted()) showAnswer(me, ME_TEXT.pending.alreadyConfirmed);
      }
    });

  const leave = () =>
    run("leave", "waitlist", async () => {
      const me = await api.leave();
      if (!isMounted()) return;
      setLeaving(false);
      showAnswer(me, ME_TEXT.leave.left);
    });

  const setSubscribed = (subscribed: boolean) => {
    // The button is disabled while the request runs, which drops focus to the page: it comes
    // back to the button (a failure: its alert is read), or to what was done (below).
    focusAfterRender(subscriptionButton);
    return run("subscription", "subscription", async () => {
      const me = await api.setSubscribed(subscribed);
      if (!isMounted()) return;
      setView({ kind: "loaded", me });
      const t = ME_TEXT.subscription;
      const text = !subscribed ? t.unsubscribed : me.invited_at ? t.invited.resubscribed : t.resubscribed;
      setNotice({ area: "subscription", kind: "success", text });
      focusAfterRender(subscriptionSaid);
    });
  };

  const download = () =>
    run("data", "data", async () => {
      const file = await api.data();
      saveFile(file.blob, file.fileName);
      if (isMounted()) setNotice({ area: "data", kind: "success", text: ME_TEXT.data.downloaded });
    });

  function erase(event: FormEvent<HTMLFormElement>, email: string) {
    event.preventDefault();
    // The same address, however it was typed (the server folds it the same way).
    if (typed.trim().toLowerCase() !== email.toLowerCase()) {
      setMismatch(true);
      eraseField.current?.focus();
      return;
    }
    setMismatch(false);
    void run("erase", "erase", async () => {
      try {
        await api.erase(typed.trim());
      } catch (error) {
        if (!(error instanceof MeApiError && error.failure.kind === "mismatch")) throw error;
        if (isMounted()) {
          setMismatch(true);
          focusAfterRender(eraseField);
        }
        return;
      }
      // The user is gone on the server, so is the session: end it on this device too (local: the
      // stored session is removed even though the server can no longer revoke it).
      try {
        await signOut();
      } catch (error) {
        console.error("Signing out after the erasure failed.", error);
      }
      onErased();
    });
  }

  if (view.kind === "loading") {
    return (
      <p className="me__loading" role="status">
        {myPlaceShell.loading}
      </p>
    );
  }
  if (view.kind === "sessionEnded") return <SignedOutView text={ME_TEXT.sessionEnded} />;
  if (view.kind === "loadFailed") {
    return (
      <div className="me__body" role="alert">
        <p>{view.message}</p>
        <button type="button" className="button" onClick={() => void load()}>
          {ME_TEXT.retry}
        </button>
      </div>
    );
  }

  const { me } = view;
  const noticeIn = (area: Area) => (notice?.area === area ? notice : null);
  const errorIn = (area: Area) => (noticeIn(area)?.kind === "error" ? noticeIn(area)!.text : "");
  const successIn = (area: Area) => (noticeIn(area)?.kind === "success" ? noticeIn(area)!.text : "");
  const eraseErrorId = `${ids}erase-error`;
  /** When an invite wave drew the entry: its place and the line-jumping pitch are over. */
  const invited = me.status === "confirmed" ? me.invited_at : null;

  return (
    <div className="me__body">
      <section className="me__section" aria-labelledby={`${ids}status`}>
        <h2 id={`${ids}status`} ref={statusHeading} tabIndex={-1}>
          {ME_TEXT.statusHeading}
        </h2>
        <dl className="me__facts">
          <div>
            <dt>{ME_TEXT.statusLabel}</dt>
            <dd className={`me__status me__status--${me.status}`}>{invited ? ME_TEXT.invited.status : ME_TEXT.status[me.status]}</dd>
          </div>
          {me.joined_at && (
            <div>
              <dt>{ME_TEXT.joinedAt}</dt>
              <dd>
                <Time iso={me.joined_at} />
              </dd>
            </div>
          )}
          {me.confirmed_at && (
            <div>
              <dt>{ME_TEXT.confirmedAt}</dt>
              <dd>
                <Time iso={me.confirmed_at} />
              </dd>
            </div>
          )}
          {invited && (
            <div>
              <dt>{ME_TEXT.invitedAt}</dt>
              <dd>
                <Time iso={invited} />
              </dd>
            </div>
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
        {me.status === "none" && (
          <>
            <p>{ME_TEXT.none.text(me.email)}</p>
            <button type="button" className="button button--primary" onClick={join} disabled={busy !== null}>
              {busy === "join" ? ME_TEXT.none.joining : ME_TEXT.none.join}
            </button>
          </>
        )}
        {me.status === "pending" && (
          <>
            <p>{ME_TEXT.pending.text(me.email)}</p>
            <button type="button" className="button button--primary" onClick={resend} disabled={busy !== null}>
              {busy === "resend" ? ME_TEXT.pending.resending : ME_TEXT.pending.resend}
            </button>
          </>
        )}

        <p className="message message--success" role="status">
          {successIn("waitlist")}
        </p>
        <p className="message message--error" role="alert">
          {errorIn("waitlist")}
        </p>

        {me.status === "confirmed" && me.referral_link && (
          <ShareBox
            link={me.referral_link}
            text={me.share.text}
            boost={me.referral_boost}
            pending={me.referrals_pending}
            confirmed={me.referrals_confirmed}
            {...(invited ? { heading: ME_TEXT.invited.shareHeading, rule: ME_TEXT.invited.shareRule } : {})}
          />
        )}

        {me.status !== "none" &&
          (leaving ? (
            <div className="me__confirm">
              {/* Focused when asked, so the question is read before its buttons. */}
              <p ref={leaveQuestion} tabIndex={-1}>
                {ME_TEXT.leave.question}
              </p>
              <div className="me__buttons">
                <button type="button" className="button button--danger" onClick={leave} disabled={busy !== null}>
                  {busy === "leave" ? ME_TEXT.leave.leaving : ME_TEXT.leave.confirm}
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={busy === "leave"}
                  onClick={() => {
                    setLeaving(false);
                    focusAfterRender(leaveButton);
                  }}
                >
                  {ME_TEXT.leave.cancel}
                </button>
              </div>
            </div>
          ) : (
            <button
              ref={leaveButton}
              type="button"
              className="button me__leave"
              disabled={busy !== null}
              onClick={() => {
                setLeaving(true);
                setNotice(null);
                focusAfterRender(leaveQuestion);
              }}
            >
              {ME_TEXT.leave.button}
            </button>
          ))}
      </section>

      {me.subscription && (
        <SubscriptionSection
          headingId={`${ids}subscription`}
          subscription={me.subscription}
          invited={invited !== null}
          disabled={busy !== null}
          pending={busy === "subscription"}
          success={successIn("subscription")}
          error={errorIn("subscription")}
          onChange={(subscribed) => void setSubscribed(subscribed)}
          time={(iso) => <Time iso={iso} />}
          buttonRef={subscriptionButton}
          successRef={subscriptionSaid}
        />
      )}

      <section className="me__section" aria-labelledby={`${ids}data`}>
        <h2 id={`${ids}data`}>{ME_TEXT.data.heading}</h2>
        <p>{ME_TEXT.data.text}</p>
        <button type="button" className="button" onClick={download} disabled={busy !== null}>
          {busy === "data" ? ME_TEXT.data.downloading : ME_TEXT.data.download}
        </button>
        <p className="message message--success" role="status">
          {successIn("data")}
        </p>
        <p className="message message--error" role="alert">
          {errorIn("data")}
        </p>
      </section>

      <section className="me__section me__section--danger" aria-labelledby={`${ids}erase`}>
        <h2 id={`${ids}erase`}>{ME_TEXT.erase.heading}</h2>
        <p>{ME_TEXT.erase.text}</p>
        {erasing ? (
          <form className="me__erase" onSubmit={(event) => erase(event, me.email)} noValidate>
            <label htmlFor={`${ids}erase-field`}>{ME_TEXT.erase.fieldLabel(me.email)}</label>
            <input
              ref={eraseField}
              id={`${ids}erase-field`}
              className="input"
              type="email"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                setMismatch(false);
              }}
              aria-invalid={mismatch || undefined}
              aria-describedby={eraseErrorId}
              disabled={busy === "erase"}
            />
            <p id={eraseErrorId} className="message message--error" role="alert">
              {mismatch ? ME_TEXT.erase.mismatch : errorIn("erase")}
            </p>
            <div className="me__buttons">
              <button type="submit" className="button button--danger" disabled={busy !== null}>
                {busy === "erase" ? ME_TEXT.erase.deleting : ME_TEXT.erase.confirm}
              </button>
              <button
                type="button"
                className="button"
                disabled={busy === "erase"}
                onClick={() => {
                  setErasing(false);
                  setTyped("");
                  setMismatch(false);
                  focusAfterRender(eraseButton);
                }}
              >
                {ME_TEXT.erase.cancel}
              </button>
            </div>
          </form>
        ) : (
          <button
            ref={eraseButton}
            type="button"
            className="button button--danger"
            disabled={busy !== null}
            onClick={() => {
              setErasing(true);
              setNotice(null);
              focusAfterRender(eraseField);
            }}
          >
            {ME_TEXT.erase.open}
          </button>
        )}
      </section>
    </div>
  );
}

/** An ISO time in words, in the e-mails' style ("25 November 2026, 04:12 UTC"). */
function Time({ iso }: { iso: string }) {
  if (Number.isNaN(new Date(iso).getTime())) return <>{iso}</>;
  return <time dateTime={iso}>{longDateTime(iso)}</time>;
}

/** The message of a failed call: the API error's, or `fallback` for anything unexpected. */
function messageOf(error: unknown, fallback: string): string {
  if (error instanceof MeApiError && error.failure.kind === "error") return error.failure.message;
  console.error(error);
  return fallback;
}
