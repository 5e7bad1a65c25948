import type { AdminStats } from "@shared/admin";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { AdminApiError, createAdminApi, type AdminApi } from "./api";
import { Console } from "./Console";
import { admin } from "./content";
import { ConsoleContext, type ConsoleContextValue } from "./context";
import { ViewHeading } from "./ViewHeading";
import { currentSession, LOGIN_URL, onSessionChange, sessionTokens, signOut } from "./session";

/**
 * The console's page: it first checks who is signed in (the site's session) and whether the
 * API takes them as an operator (GET /api/admin/stats, which the overview needs anyway), then
 * shows one of: signed out (the way to sign in), not authorised, the console, or why it could
 * not check (with a way to try again).
 */
type View =
  | { name: "checking" }
  | { name: "signedOut"; sessionEnded: boolean }
  | { name: "notAuthorised"; email: string | null }
  | { name: "failed"; message: string }
  | { name: "console"; email: string | null; stats: AdminStats };

const MAIN_ID = "console";

export function AdminApp({ api: givenApi }: { api?: AdminApi } = {}) {
  const api = useMemo(() => givenApi ?? createAdminApi(sessionTokens), [givenApi]);
  const [view, setViewState] = useState<View>({ name: "checking" });
  // The view's heading takes focus when the view changes because of something done on the page
  // (or in another tab), not when the page first opens.
  const [focusHeading, setFocusHeading] = useState(false);
  // The view as last set (events from auth-js may come before React has rendered it).
  const viewRef = useRef(view);
  const setView = useCallback((next: View | ((current: View) => View)) => {
    viewRef.current = typeof next === "function" ? next(viewRef.current) : next;
    setViewState(viewRef.current);
  }, []);
  const checkId = useRef(0);

  const check = useCallback(
    async (focus: boolean) => {
      const id = ++checkId.current;
      const show = (next: View) => {
        if (id !== checkId.current) return;
        setFocusHeading(focus);
        setView(next);
      };
      setView({ name: "checking" });
      let email: string | null;
      try {
        const session = await currentSession();
        if (!session) return show({ name: "signedOut", sessionEnded: false });
        email = session.email;
      } catch (error) {
        console.error("Could not read the session.", error);
        return show({ name: "failed", message: admin.errors.network });
      }
      try {
        show({ name: "console", email, stats: await api.stats() });
      } catch (error) {
        const failure = error instanceof AdminApiError ? error.failure : null;
        if (failure?.kind === "signedOut") {
          await endSession();
          return show({ name: "signedOut", sessionEnded: true });
        }
        if (failure?.kind === "notOperator") return show({ name: "notAuthorised", email });
        show({ name: "failed", message: failure?.kind === "error" ? failure.message : admin.errors.unexpected });
      }
    },
    [api, setView],
  );

  useEffect(() => {
    void check(false);
  }, [check]);

  // Signing in or out in another tab (or the server ending the session) carries on here.
  useEffect(
    () =>
      onSessionChange((event, email) => {
        const current = viewRef.current;
        if (event === "SIGNED_OUT" && current.name !== "signedOut" && current.name !== "checking") {
          checkId.current++;
          setFocusHeading(true);
          setView({ name: "signedOut", sessionEnded: false });
        } else if (event === "SIGNED_IN") {
          const someoneElse =
            current.name === "signedOut" ||
            (current.name === "notAuthorised" && current.email !== email) ||
            (current.name === "console" && current.email !== email);
          if (someoneElse) void check(true);
        }
      }),
    [check, setView],
  );

  const report = useCallback(
    (error: unknown): string | null => {
      if (!(error instanceof AdminApiError)) {
        console.error("The console failed.", error);
        return admin.errors.unexpected;
      }
      const { failure } = error;
      if (failure.kind === "error") return failure.message;
      checkId.current++;
      setFocusHeading(true);
      if (failure.kind === "signedOut") {
        void endSession();
        setView({ name: "signedOut", sessionEnded: true });
      } else {
        const current = viewRef.current;
        setView({ name: "notAuthorised", email: current.name === "console" ? current.email : null });
      }
      return null;
    },
    [setView],
  );

  const context = useMemo<ConsoleContextValue>(() => ({ api, report }), [api, report]);

  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  async function signOutHere() {
    setSigningOut(true);
    setSignOutError(null);
    try {
      await signOut();
      checkId.current++;
      setFocusHeading(true);
      setView({ name: "signedOut", sessionEnded: false });
    } catch (error) {
      console.error("Signing out failed.", error);
      setSignOutError(admin.errors.network);
    } finally {
      setSigningOut(false);
    }
  }
  const signOutButton = (
    <button type="button" className="button button--small" onClick={signOutHere} disabled={signingOut}>
      {signingOut ? admin.signingOut : admin.signOut}
    </button>
  );

  useEffect(() => {
    // The console itself (and the check before it) is the page's own title; other views say what they are first.
    const titles: Record<View["name"], string | null> = {
      checking: null,
      signedOut: admin.signedOut.title,
      notAuthorised: admin.notAuthorised.title,
      failed: admin.failed.title,
      console: null,
    };
    const title = titles[view.name];
    document.title = title ? `${title} · ${admin.documentTitle}` : admin.documentTitle;
  }, [view.name]);

  if (view.name === "console") {
    return (
      <ConsoleContext.Provider value={context}>
        <Console
          email={view.email}
          stats={view.stats}
          onStats={(stats) => setView((current) => (current.name === "console" ? { ...current, stats } : current))}
          signOutButton={signOutButton}
          signOutError={signOutError}
          focusHeading={focusHeading}
          mainId={MAIN_ID}
        />
      </ConsoleContext.Provider>
    );
  }

  return (
    <Page>
      {view.name === "checking" && (
        <div className="panel">
          <h1 className="visually-hidden">{admin.title}</h1>
          <p role="status" className="checking">
            {admin.checking}
          </p>
        </div>
      )}
      {view.name === "signedOut" && (
        <div className="panel">
          <ViewHeading focus={focusHeading}>{admin.signedOut.title}</ViewHeading>
          {view.sessionEnded && (
            <p role="status" className="notice">
              {admin.signedOut.sessionEnded}
            </p>
          )}
          <p>{admin.signedOut.text}</p>
          <p>
            <a className="button button--primary" href={LOGIN_URL}>
              {admin.signedOut.link}
            </a>
          </p>
          <p className="muted">{admin.signedOut.afterwards}</p>
        </div>
      )}
      {view.name === "notAuthorised" && (
        <div className="panel">
          <ViewHeading focus={focusHeading}>{admin.notAuthorised.title}</ViewHeading>
          <p>{admin.notAuthorised.text(view.email)}</p>
          <p className="muted">{admin.notAuthorised.help}</p>
          <p>{signOutButton}</p>
          {signOutError && (
            <p role="alert" className="error">
              {signOutError}
            </p>
          )}
        </div>
      )}
      {view.name === "failed" && (
        <div className="panel">
          <ViewHeading focus={focusHeading}>{admin.failed.title}</ViewHeading>
          <p role="alert" className="error">
            {view.message}
          </p>
          <p>
            <button type="button" className="button button--primary" onClick={() => void check(true)}>
              {admin.tryAgain}
            </button>
          </p>
        </div>
      )}
    </Page>
  );
}

/** auth-js forgets a session the server no longer takes, so the site's pages agree. */
async function endSession(): Promise<void> {
  try {
    await signOut();
  } catch (error) {
    console.error("Could not clear the stored session.", error);
  }
}

/** The frame of the views before the console: the brand, and one panel. */
function Page({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href={`#${MAIN_ID}`}>
        {admin.skipLink}
      </a>
      <header className="admin-header">
        <div className="admin-header__inner">
          <p className="admin-brand">
            {admin.brand} <span className="admin-brand__sub">{admin.title}</span>
          </p>
          <a className="admin-header__link" href="/">
            {admin.backToSite}
          </a>
        </div>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className="admin-main admin-main--narrow">
        {children}
      </main>
    </>
  );
}
