import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { AuthChangeEvent } from "@supabase/auth-js";
import { AuthContext, type AuthState } from "./auth-context";
import { getAuthClient } from "./client";
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
 * Tracks who is signed in. The first render uses the session stored by a previous visit, so the
 * header is right immediately; once the page is idle, auth-js is loaded and its events take over.
 * auth-js itself keeps the session (storage, refresh, expiry) and relays sign-ins and sign-outs
 * from other tabs, so every open tab follows along.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [email, setEmail] = useState<string | null>(storedSessionEmail);

  useEffect(() => {
    let active = true;
    let unsubscribe: (() => void) | undefined;

    const connect = () => {
      getAuthClient().then(
        (client) => {
          if (!active) return;
          const { data } = client.onAuthStateChange((event, session) => {
            if (SESSION_EVENTS.has(event)) setEmail(session?.user.email ?? null);
          });
          unsubscribe = () => data.subscription.unsubscribe();
        },
        (error: unknown) => {
          // Offline or a failed deploy: the stored-session hint stays; actions retry the load.
          console.error("Could not load the sign-in library.", error);
        },
      );
    };

    const cancelScheduled = whenIdle(connect);
    return () => {
      active = false;
      cancelScheduled();
      unsubscribe?.();
    };
  }, []);

  const state = useMemo<AuthState>(() => ({ email }), [email]);
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
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
