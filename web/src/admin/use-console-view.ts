import type { AdminStats } from "@shared/admin";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AdminApiError, type AdminApi } from "./api";
import { admin } from "./content";
import type { ConsoleContextValue } from "./context";
import { currentSession, onSessionChange, signOut } from "./session";

/** What the console's page shows: the check, signed out, not authorised, the console, or why it could not check. */
export type View =
  | { name: "checking" }
  | { name: "signedOut"; sessionEnded: boolean }
  | { name: "notAuthorised"; email: string | null }
  | { name: "failed"; message: string }
  | { name: "console"; email: string | null; stats: AdminStats };

/**
 * Which view the console's page shows, and what changes it. It first checks who is signed in
 * (the site's session) and whether the API takes them as an operator (GET /api/admin/stats,
 * which the overview needs anyway); a sign-in or sign-out in another tab, a failed call that
 * says the session ended or the account is no operator, and signing out here change it later.
 * The new view's heading takes focus then (`focusHeading`), not when the page first opens.
 */
export function useConsoleView(api: AdminApi) {
  const [view, setViewState] = useState<View>({ name: "checking" });
  const [focusHeading, setFocusHeading] = useState(false);
  // The view as last set (events from auth-js may come before React has rendered it).
  const viewRef = useRef(view);
  const setView = useCallback((next: View | ((current: View) => View)) => {
    viewRef.current = typeof next === "function" ? next(viewRef.current) : next;
    setViewState(viewRef.current);
  }, []);
  // Bumped by every change of view: a check that answers after another change is not shown.
  const checkId = useRef(0);
  /** Shows `next` at once, with its heading focused, and drops any check still running. */
  const replaceView = useCallback(
    (next: View) => {
      checkId.current++;
      setFocusHeading(true);
      setView(next);
    },
    [setView],
  );

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
          replaceView({ name: "signedOut", sessionEnded: false });
        } else if (event === "SIGNED_IN") {
          const someoneElse =
            current.name === "signedOut" ||
            (current.name === "notAuthorised" && current.email !== email) ||
            (current.name === "console" && current.email !== email);
          if (someoneElse) void check(true);
        }
      }),
    [check, replaceView],
  );

  const report = useCallback(
    (error: unknown): string | null => {
      if (!(error instanceof AdminApiError)) {
        console.error("The console failed.", error);
        return admin.errors.unexpected;
      }
      const { failure } = error;
      if (failure.kind === "error") return failure.message;
      if (failure.kind === "signedOut") {
        void endSession();
        replaceView({ name: "signedOut", sessionEnded: true });
      } else {
        const current = viewRef.current;
        replaceView({ name: "notAuthorised", email: current.name === "console" ? current.email : null });
      }
      return null;
    },
    [replaceView],
  );

  const context = useMemo<ConsoleContextValue>(() => ({ api, report }), [api, report]);

  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  async function signOutHere() {
    setSigningOut(true);
    setSignOutError(null);
    try {
      await signOut();
      replaceView({ name: "signedOut", sessionEnded: false });
    } catch (error) {
      console.error("Signing out failed.", error);
      setSignOutError(admin.errors.network);
    } finally {
      setSigningOut(false);
    }
  }

  return {
    view,
    focusHeading,
    context,
    /** Checks again, from the "could not start" view. */
    retry: () => void check(true),
    /** New figures for the console view (Refresh, after a retry or an erasure). */
    setStats: (stats: AdminStats) => setView((current) => (current.name === "console" ? { ...current, stats } : current)),
    signingOut: { busy: signingOut, error: signOutError, run: signOutHere },
  };
}

/** auth-js forgets a session the server no longer takes, so the site's pages agree. */
async function endSession(): Promise<void> {
  try {
    await signOut();
  } catch (error) {
    console.error("Could not clear the stored session.", error);
  }
}
