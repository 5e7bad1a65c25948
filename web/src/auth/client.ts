import type { AuthClient as AuthClientClass } from "@supabase/auth-js";

/** An auth-js client (the package exports the class as a value only). */
export type AuthClient = InstanceType<typeof AuthClientClass>;

/** The localStorage key under which auth-js keeps the session (and names its cross-tab channel). */
export const AUTH_STORAGE_KEY = "hwh-auth";

let clientPromise: Promise<AuthClient> | undefined;
let loadedClient: AuthClient | undefined;
const loadedListeners = new Set<(client: AuthClient) => void>();

/**
 * Calls `listener` once with the client as soon as anything on the page has loaded it (or at
 * once if it is loaded already), without loading it itself. Returns a function that cancels.
 */
export function onAuthClientLoaded(listener: (client: AuthClient) => void): () => void {
  if (loadedClient) {
    listener(loadedClient);
    return () => {};
  }
  loadedListeners.add(listener);
  return () => loadedListeners.delete(listener);
}

/**
 * The one auth client of this page. auth-js is imported on first use so it becomes its own
 * chunk: the first paint never waits for it. A failed chunk load is not remembered, so the next
 * call (say, a second click) tries again.
 *
 * The auth server is this site's own worker (/auth/v1), so no API key is needed or shipped.
 */
export function getAuthClient(): Promise<AuthClient> {
  if (!clientPromise) {
    const loading = import("@supabase/auth-js").then(
      ({ AuthClient }) =>
        new AuthClient({
          url: `${location.origin}/auth/v1`,
          storageKey: AUTH_STORAGE_KEY,
          persistSession: true,
          autoRefreshToken: true,
          // Sessions arrive through verifyOtp, never in the URL; the hash belongs to the router.
          detectSessionInUrl: false,
          flowType: "implicit",
        }),
    );
    loading.then(
      (client) => {
        loadedClient = client;
        for (const listener of [...loadedListeners]) listener(client);
        loadedListeners.clear();
      },
      () => {
        if (clientPromise === loading) clientPromise = undefined;
      },
    );
    clientPromise = loading;
  }
  return clientPromise;
}
