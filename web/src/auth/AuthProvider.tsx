import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import type { AuthChangeEvent } from "@supabase/auth-js";
import { AuthContext, type AuthState } from "./auth-context";
import { getAuthClient, onAuthClientLoaded } from "./client";
import { storedSessionEmail } from "./stored-session";

/** The auth-js events that say who is signed in now; their session (or null) is the truth. */
const SESSION_EVENTS: ReadonlySet<AuthChangeEvent> = new Set<AuthChangeEvent>([
  "INITIAL_SESSION",
  "SIGNED_IN",
  "SIGNED_OUT",
  "TOKEN_REFRESHED",
  "USER_UPDATED",
]);

/** How long the browser may postpone loading auth-js while it is busy with the first paint. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Tracks who is signed in. Until auth-js reports, the session stored by a previous visit is the
 * answer, so the header is right at once. auth-js (a chunk of its own) is only loaded when there
 * is a session to look after: one is stored when the page opens or another tab stores one later,
 * or this page signs in or out (the login page and Logout load it). A visitor who never signed in
 * downloads none of it. Once loaded, its events are the truth: auth-js keeps the session
 * (storage, refresh, expiry) and relays sign-ins and sign-outs between tabs.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  // The stored session is read through useSyncExternalStore so that the prerender (no storage)
  // and hydration render nobody signed in, exactly like the prerendered HTML, and the stored
  // e-mail shows right after hydration; a page rendered from scratch shows it at once. Storage
  // events keep it current when another tab signs in or out.
  const storedEmail = useSyncExternalStore(subscribeToStorage, storedSessionEmail, noStoredSession);
  // undefined until auth-js has said who is signed in.
  const [reportedEmail, setReportedEmail] = useState<string | null | undefined>(undefined);
  const email = reportedEmail === undefined ? storedEmail : reportedEmail;
  const hasStoredSession = storedEmail !== null;

  // Follow auth-js's events from whenever it is loaded, by this provider or by a page.
  useEffect(() => {
    let unsubscribeEvents: (() => void) | undefined;
    const stopWaiting = onAuthClientLoaded((client) => {
      const { data } = client.onAuthStateChange((event, session) => {
        if (SESSION_EVENTS.has(event)) setReportedEmail(session?.user.email ?? null);
      });
      unsubscribeEvents = () => data.subscription.unsubscribe();
    });
    return () => {
      stopWaiting();
      unsubscribeEvents?.();
    };
  }, []);

  // A stored session needs auth-js: to confirm it, refresh it and end it when it is revoked.
  useEffect(() => {
    if (!hasStoredSession) return;
    return whenIdle(() => {
      getAuthClient().catch((error: unknown) => {
        // Offline or a failed deploy: the stored-session hint stays; actions retry the load.
        console.error("Could not load the sign-in library.", error);
      });
    });
  }, [hasStoredSession]);

  const state = useMemo<AuthState>(() => ({ email }), [email]);
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

/** Another tab signing in or out changes the stored session before auth-js is loaded here. */
function subscribeToStorage(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

/** What the server (and hydration) assume: no stored session. */
function noStoredSession(): null {
  return null;
}

/** Runs `task` once the browser is idle (or soon, where requestIdleCallback is missing). */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 1);
  return () => window.clearTimeout(handle);
}
