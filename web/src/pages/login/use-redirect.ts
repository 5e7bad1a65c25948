import { useCallback, useEffect, useRef } from "react";
import { returnPathOfHash } from "../../routes";
import { goToReturnPath } from "./return-path";

/** Spec §4 and §9: after a successful sign-in the page waits this long before going on. */
const LOGIN_REDIRECT_DELAY_MS = 1500;

/**
 * What the sign-in page does once signed in: after a moment (spec §4's 1.5 s), goes where the
 * visitor was going (a link's `next`: the console, My place, a page of the site), else to My place
 * (returnPathOfHash); nothing if the page is gone by then.
 */
export function useRedirectAfterSignIn(navigate: (to: string) => void): () => void {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback(() => {
    const returnPath = returnPathOfHash(window.location.hash);
    timer.current = window.setTimeout(() => goToReturnPath(returnPath, navigate), LOGIN_REDIRECT_DELAY_MS);
  }, [navigate]);
}
