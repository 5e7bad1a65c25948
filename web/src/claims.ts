/**
 * The page's claims (worker/shared/claims.ts) as the visitor sees them: the worker writes the
 * current ones (the launch line as set, the confirmed count rounded down, or none below the
 * threshold) into the served page and into a <meta> read here, so the app renders, and hydrates,
 * exactly what the page already shows. Without that meta (the prerender at build time, a page not
 * served by the worker, the component tests) the page states the spec's claims, as built.
 */
import { CLAIMS_META, type ClaimKey, type ClaimWords, type Claims, SPEC_CLAIMS, claimWords, readClaims } from "@shared/claims";
import { createContext, useContext } from "react";

/**
 * Whether this render marks the claim-bearing elements (`data-claim`): only the build's prerender
 * of the home page does (web/build/prerender.ts), for the worker to find them. The worker takes
 * the marks out of the page it serves (the first round trip's bytes), and the app in the browser
 * renders none, so hydration finds exactly what it renders.
 */
export const ClaimMarks = createContext(false);

/** The mark of a claim-bearing element in this render: its key when marking, otherwise none. */
export function useClaimMark(): (key: ClaimKey | undefined) => ClaimKey | undefined {
  const marking = useContext(ClaimMarks);
  return (key) => (marking ? key : undefined);
}

export function pageClaims(): Claims {
  if (typeof document === "undefined") return SPEC_CLAIMS;
  return readClaims(document.querySelector(`meta[name="${CLAIMS_META}"]`)?.getAttribute("content")) ?? SPEC_CLAIMS;
}

/** Every claim-bearing text of the page, for the claims the page carries. */
export function pageClaimWords(): ClaimWords {
  return claimWords(pageClaims());
}
