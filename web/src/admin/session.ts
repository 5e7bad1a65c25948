import { AUTH_STORAGE_KEY, getAuthClient } from "../auth/client";
import { CONSOLE_PATH, loginHref } from "../routes";
import type { TokenSource } from "./api";

/**
 * The operator's session: the site's own (web/src/auth/client.ts), so signing in on the site's
 * login page signs the console in, auth-js keeps it (storage, refresh) and relays sign-ins and
 * sign-outs between this tab and the site's.
 */

/** Where an operator signs in: the site's own login page (an e-mail code, like anyone), which comes back to the console. */
export const LOGIN_URL = /* @__PURE__ */ loginHref(CONSOLE_PATH);

export type OperatorSession = { email: string | null; accessToken: string };

type SessionAnswer = {
  data: { session: { access_token: string; user?: { email?: string | null } | null } | null };
  error: { name?: string } | null;
};

function sessionOf({ data, error }: SessionAnswer): OperatorSession | null {
  if (error && error.name === "AuthRetryableFetchError") throw error;
  const session = data.session;
  if (error || !session?.access_token) return null;
  return { email: session.user?.email ?? null, accessToken: session.access_token };
}

/**
 * Who is signed in: null when nobody is. auth-js refreshes an access token that is about to
 * expire; a refresh the server refused ends the session (null); one that got no answer throws.
 */
export async function currentSession(): Promise<OperatorSession | null> {
  const client = await getAuthClient();
  return sessionOf(await client.getSession());
}

/** A fresh access token for the session (after the server refused the one it had), or null. */
async function refreshedSession(): Promise<OperatorSession | null> {
  const client = await getAuthClient();
  const answer = await client.refreshSession();
  try {
    return sessionOf(answer);
  } catch {
    return null;
  }
}

/** The API's tokens, from the stored session. */
export const sessionTokens: TokenSource = {
  token: async () => (await currentSession())?.accessToken ?? null,
  refreshedToken: async () => (await refreshedSession())?.accessToken ?? null,
};

/**
 * Ends the session on this device (as the site's Logout does: "local" removes the stored session
 * before asking the server to revoke it, so the device is signed out even when that fails).
 */
export async function signOut(): Promise<void> {
  const client = await getAuthClient();
  await client.signOut({ scope: "local" });
}

/**
 * Calls `onChange` when the session is started or ended from elsewhere: another tab (auth-js
 * relays it) or the server refusing a refresh. The stored session's own storage event is heard
 * too: auth-js relays through a BroadcastChannel, which a busy or background tab may not get
 * to for a while, while the browser always reports a change of the stored session to the
 * other tabs. Returns a function that stops listening.
 */
export function onSessionChange(onChange: (event: "SIGNED_IN" | "SIGNED_OUT", email: string | null) => void): () => void {
  let stopped = false;
  let unsubscribe: (() => void) | undefined;
  const onStorage = (event: StorageEvent) => {
    if (event.key !== AUTH_STORAGE_KEY || event.newValue === event.oldValue) return;
    if (event.newValue === null) onChange("SIGNED_OUT", null);
    else onChange("SIGNED_IN", storedEmail(event.newValue));
  };
  window.addEventListener("storage", onStorage);
  getAuthClient().then(
    (client) => {
      if (stopped) return;
      const { data } = client.onAuthStateChange((event, session) => {
        if (event === "SIGNED_IN" || event === "SIGNED_OUT") onChange(event, session?.user?.email ?? null);
      });
      unsubscribe = () => data.subscription.unsubscribe();
    },
    () => {
      // Could not load auth-js: the first check has said so already.
    },
  );
  return () => {
    stopped = true;
    window.removeEventListener("storage", onStorage);
    unsubscribe?.();
  };
}

/** The address of a stored session (auth-js's JSON), or null when it names none. */
function storedEmail(stored: string): string | null {
  try {
    const email = (JSON.parse(stored) as { user?: { email?: unknown } } | null)?.user?.email;
    return typeof email === "string" ? email : null;
  } catch {
    return null;
  }
}
