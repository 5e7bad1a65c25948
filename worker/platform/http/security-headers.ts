import type { MiddlewareHandler } from "hono";
import { SECURITY_HEADERS } from "../../shared/security-headers";

/**
 * Adds the site's security headers to every answer of the worker (API, sign-in, pages it passes
 * on from the static assets) that does not already carry them; a route with stricter needs of
 * its own (the dev mailbox's CSP) keeps its value.
 */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const missing = Object.entries(SECURITY_HEADERS).filter(([name]) => !c.res.headers.has(name));
  if (missing.length === 0) return;
  try {
    for (const [name, value] of missing) c.res.headers.set(name, value);
  } catch {
    // Answers passed on from the assets binding have immutable headers (the first set throws):
    // copy the response, then add them.
    const response = new Response(c.res.body, c.res);
    for (const [name, value] of missing) response.headers.set(name, value);
    c.res = response;
  }
};
