/**
 * The page's claims (worker/shared/claims.ts) as the visitor sees them: the worker writes the
 * current ones (the launch line as set, the confirmed count rounded down, or none below the
 * threshold) into the served page and into a <meta> read here, so the app renders, and hydrates,
 * exactly what the page already shows. Without that meta (the prerender at build time, a page not
 * served by the worker, the component tests) the page states the spec's claims, as built.
 */
import { CLAIMS_META, type ClaimWords, type Claims, SPEC_CLAIMS, claimWords, readClaims } from "@shared/claims";

export function pageClaims(): Claims {
  if (typeof document === "undefined") return SPEC_CLAIMS;
  return readClaims(document.querySelector(`meta[name="${CLAIMS_META}"]`)?.getAttribute("content")) ?? SPEC_CLAIMS;
}

/** Every claim-bearing text of the page, for the claims the page carries. */
export function pageClaimWords(): ClaimWords {
  return claimWords(pageClaims());
}
