import { AGE_MESSAGES } from "@shared/age";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { sessionTokens } from "../../admin/session";
import { useAuth } from "../../auth/auth-context";
import { myPlaceShell } from "../../content";
import { loginHref, ROUTES } from "../../routes";
import { createMeApi, type Erased, type MeApi } from "./api";
import { ME_TEXT } from "./content";
import { EraseSection } from "./EraseSection";
import { Said } from "./parts";
import { ParentPath, StatusSection } from "./StatusSection";
import { SubscriptionSection } from "./SubscriptionSection";
import { invitedAt, useMyPlace } from "./use-my-place";
import "./me.css";

/**
 * "My place" (/#/me, issue 16): the signed-in joiner's waitlist status, place, referral link and
 * share buttons, friends who joined, and the actions on their own data. It is the lazily loaded
 * part of ../MyPlacePage.tsx (the default export React.lazy takes).
 *
 * Not signed in: a link to sign in that comes back here. After "Delete everything" the session
 * is ended on this device and the page says what happened, whoever is signed in by then; the same
 * after a one-click join below the consent age, whose address the server erased (issue 23).
 */
export default function MePage() {
  const { email } = useAuth();
  const [erased, setErased] = useState<Erased | null>(null);
  const api = useMemo(() => createMeApi(sessionTokens), []);

  if (erased === "child") return <ChildErasedView />;
  if (erased === "self") return <ErasedView />;
  if (email === null) return <SignedOutView text={ME_TEXT.signedOut.text} />;
  // A new key per address: another account signing in (another tab) starts the page afresh.
  return <SignedInPage key={email} api={api} onErased={setErased} />;
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

/**
 * After a one-click join below the consent age (issue 23): the server erased the child's sign-in
 * and the session is gone; the parent path's words stay, with one sentence on what was deleted.
 * The address is never shown back.
 */
function ChildErasedView() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="me__body waitlist__parent">
      <h2 ref={heading} tabIndex={-1}>
        {AGE_MESSAGES.parentNeeded}
      </h2>
      <p role="status">{ME_TEXT.none.signInDeleted}</p>
      <ParentPath />
    </div>
  );
}

/** The signed-in page: loading, a failure to load, or its sections (./use-my-place.ts holds their state). */
function SignedInPage({ api, onErased }: { api: MeApi; onErased: (why: Erased) => void }) {
  const place = useMyPlace(api, onErased);
  const ids = useId();
  const { view, busy, refs } = place;

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
        <button type="button" className="button" onClick={() => void place.load()}>
          {ME_TEXT.retry}
        </button>
      </div>
    );
  }

  const { me } = view;
  return (
    <div className="me__body">
      <StatusSection me={me} place={place} headingId={`${ids}status`} />

      {me.subscription && (
        <SubscriptionSection
          headingId={`${ids}subscription`}
          subscription={me.subscription}
          invited={invitedAt(me) !== null}
          disabled={busy !== null}
          pending={busy === "subscription"}
          success={place.successIn("subscription")}
          error={place.errorIn("subscription")}
          onChange={(subscribed) => void place.actions.setSubscribed(subscribed)}
          buttonRef={refs.subscriptionButton}
          successRef={refs.subscriptionSaid}
        />
      )}

      <section className="me__section" aria-labelledby={`${ids}data`}>
        <h2 id={`${ids}data`}>{ME_TEXT.data.heading}</h2>
        <p>{ME_TEXT.data.text}</p>
        <button type="button" className="button" onClick={place.actions.download} disabled={busy !== null}>
          {busy === "data" ? ME_TEXT.data.downloading : ME_TEXT.data.download}
        </button>
        <Said success={place.successIn("data")} error={place.errorIn("data")} />
      </section>

      <EraseSection me={me} place={place} ids={ids} />
    </div>
  );
}
