import { useCallback, useEffect, useRef } from "react";
import { returnPathOfHash } from "../../routes";
import { goToReturnPath } from "./return-path";

/** Spec §4 and §9: after a successful sign-in the page waits this long before going on. */
const LOGIN_REDIRECT_DELAY_MS = 1500;

/**
 * What the sign-in page does once signed in: after a moment, goes home (spec §2) or back where the
 * visitor came to sign in from (the console's link: returnPathOfHash); nothing if the page is
 * gone by then.
 */
export function useRedirectAfterSignIn(navigate: (to: string) => void): () => void {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(() => {
    const returnPath = returnPathOfHash(window.location.hash);
    timer.current = window.setTimeout(() => goToReturnPath(returnPath, navigate), LOGIN_REDIRECT_DELAY_MS);
  }, [navigate]);
}
