/**
 * Stands in for web/src/auth/client.ts where the sign-in library is not what a test is about:
 * it never finishes loading, so the header stays on the stored-session hint.
 * Use as `vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"))`.
 */
export const AUTH_STORAGE_KEY = "hwh-auth";
export const getAuthClient = () => new Promise<never>(() => {});
export const onAuthClientLoaded = () => () => {};
