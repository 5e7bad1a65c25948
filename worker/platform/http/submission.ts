import { Hono, type Context, type MiddlewareHandler } from "hono";
import type * as v from "valibot";
import { FORM_PAGE_TEXT, HONEYPOT_FIELD, TURNSTILE_FIELD, tooManyAttempts } from "../../shared/public-forms";
import { accepted, created, type FormPostEnv, textFields } from "./answer";
import { type BodyFormat, bodyFormatOf, readBodyObject, UNSUPPORTED_MEDIA_TYPE, validBody } from "./body";
import { API_BODY_ERRORS, ApiError, tooManyRequests, withHeaders } from "./errors";
import type { PlatformDeps } from "./env";
import type { FormPage } from "./form-page";
import { checkFloodLimits, clientNetwork, type FloodCheck, type FloodLimiterName, limitFlood } from "../limits";
import { screenSubmission } from "./turnstile";

/**
 * The public submissions (the waitlist, each generic form): one declaration each, turned into
 * its route by submissionRoute. Two ways in share everything: the site's script posts JSON and
 * reads a JSON answer; a browser without JavaScript (or before it has loaded) posts the <form>
 * itself (application/x-www-form-urlencoded) and shows the page it gets back (form-page.ts).
 * The pipeline knows no feature: what a submission stores, refuses and sends is its
 * declaration's `store` (worker/features/waitlist/join.ts, worker/features/contact/submit.ts).
 */

/** What a store may need of its request: the site's origin (links in e-mails), the client's network, and the request itself. */
export type SubmissionRequest = {
  origin: string;
  /** The client's network (clientKey: IPv4 address, or IPv6 /64), for the referral flag of a join confirmed at once. */
  network: string;
  /** The request as it came (its cookies and Cloudflare's reading of its country: the age question's, worker/features/age). */
  raw: Request;
  /**
   * Counts the request against the declaration's flood limit and throws its 429 (the real wait)
   * over the allowance. A store whose limit is counted there (limiter.at "store") calls it right
   * before its write, after its own refusals, so a request that stores nothing costs none of the
   * allowance; counted once however often it is called; nothing to do when the pipeline counted
   * the request at its head.
   */
  limit: () => Promise<void>;
};

/**
 * What a store did: the time it took the submission (the 201's), or, after a write, the refusal
 * to answer with instead (the waitlist's 409), or a 202 with its own JSON and page lines (a
 * child's join that asked a parent instead: worker/features/waitlist/join.ts); the headers to
 * answer with whatever the answer (the age question's cookie); and the work it queued, run after
 * the response (the e-mails), so the visitor never waits for them.
 */
export type Stored = ({ at: Date } | { refused: ApiError } | { accepted: Accepted }) & {
  after?: () => Promise<unknown>;
  headers?: Record<string, string>;
};

/** A 202's JSON, and the lines its page says (the first is the headline). */
export type Accepted = { json: Record<string, unknown>; lines: readonly string[] };

/** What every public submission's schema yields besides its own fields: the honeypot and the Turnstile token. */
type Screened = { [HONEYPOT_FIELD]?: string; [TURNSTILE_FIELD]?: string };

export type PublicSubmission<S extends v.GenericSchema<unknown, Screened>, D extends PlatformDeps> = {
  /**
   * The per-client flood limit: the rate-limit binding (wrangler.toml [[ratelimits]]) and what
   * the client's network is counted with in it (`scope`, e.g. the form: "contact:<network>"),
   * or the network alone; and where it is counted (`at`): every request, at the pipeline's head
   * ("request", the default), or only a request that would store something, by the store itself
   * right before its write (`request.limit()`: "store"), so a refused or invalid one spends nothing.
   */
  limiter: { binding: FloodLimiterName; scope?: string; at?: "request" | "store" };
  /** The request body's schema (shared with the web app). */
  schema: S;
  /** The page a form post is answered with. */
  page: FormPage;
  /** The words of a 500: the submission could not be stored. */
  failure: string;
  /**
   * The 201's JSON for a submission taken at `at` (ISO 8601). A caught bot gets the same, at
   * this request's time, so it cannot tell it was caught; and it tells nothing about earlier requests.
   */
  answer: (submission: v.InferOutput<S>, at: string) => Record<string, unknown>;
  /**
   * Stores the submission (with the request's deps, D: the feature's own). Throws an ApiError to
   * refuse it before anything is written (a 400); any other error is the declaration's 500.
   */
  store: (deps: D, submission: v.InferOutput<S>, request: SubmissionRequest) => Promise<Stored>;
};

/** The pipeline's env (the app's own deps, D): the body's format, read from the media type once, at the head. */
type SubmissionEnv<D extends PlatformDeps> = FormPostEnv<D> & { Variables: { bodyFormat?: BodyFormat | null } };

/**
 * POST / of a sub-app, for one declaration, in this order:
 * 1. the media type, read once: a form post is marked to be answered with the declaration's
 *    page, so whatever it gets (201, 400, 429, ...) comes as that page (answer.ts);
 * 2. a body that is not JSON must come from this site's own pages (fromThisOrigin), checked
 *    before the per-client count, so a forged post does not spend the visitor's allowance;
 * 3. the per-client count, on the declaration's rate-limit binding (429 over the allowance, with
 *    the real wait); it writes nothing to the database, and neither does anything refused up to
 *    the store (a 4xx, a bot). A declaration counted at the store (limiter.at "store") skips it
 *    here: its store counts the request right before writing (step 6, request.limit());
 * 4. the body read, parsed and validated once (415, 413, 400);
 * 5. the screen: a filled honeypot is answered as a success and dropped; anyone else must pass
 *    Turnstile when it is configured (403, 503);
 * 6. store, then the 201 (or the store's refusal, or the 429 of its limit); what the store queued
 *    is run after the response (ctx.waitUntil), so the visitor never waits for e-mail.
 */
export function submissionRoute<S extends v.GenericSchema<unknown, Screened>, D extends PlatformDeps>(declared: PublicSubmission<S, D>) {
  const head: MiddlewareHandler<SubmissionEnv<D>> = async (c, next) => {
    const format = bodyFormatOf(c.req.header("content-type"));
    c.set("bodyFormat", format);
    if (format === "form") c.set("formPage", declared.page);
    if (format !== "json" && !fromThisOrigin(c.req.raw)) throw new ApiError(403, "cross_origin", FORM_PAGE_TEXT.otherOrigin);
    await next();
  };
  const { binding, scope, at = "request" } = declared.limiter;
  const checksOf = (c: Context<SubmissionEnv<D>>): FloodCheck[] => {
    const network = clientNetwork(c.req.raw);
    return [{ limiter: binding, key: scope ? `${scope}:${network}` : network }];
  };
  const tooMany = (wait: number) => tooManyRequests(wait, tooManyAttempts(wait));
  const perClient: MiddlewareHandler<SubmissionEnv<D>> =
    at === "request" ? limitFlood<SubmissionEnv<D>>(checksOf, tooMany) : async (_c, next) => await next();
  // The store's count (limiter.at "store"): once per request, whoever calls it how often.
  const limitOf = (c: Context<SubmissionEnv<D>>): (() => Promise<void>) => {
    if (at === "request") return async () => {};
    let counted: Promise<void> | undefined;
    return () => {
      counted ??= checkFloodLimits(c.env ?? {}, checksOf(c), c.get("deps").now()).then((verdict) => {
        if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
      });
      return counted;
    };
  };

  return new Hono<SubmissionEnv<D>>().post("/", head, perClient, async (c) => {
    const submission = await readSubmission(c, c.get("bodyFormat") ?? null, declared.schema);
    const deps = c.get("deps");
    if ((await screenSubmission(c, submission)) === "bot") return created(c, declared.answer(submission, deps.now().toISOString()));

    let stored: Stored;
    try {
      const request = { origin: new URL(c.req.url).origin, network: clientNetwork(c.req.raw), raw: c.req.raw, limit: limitOf(c) };
      stored = await declared.store(deps, submission, request);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(500, "internal_error", declared.failure, {}, {}, { cause: error });
    }
    if (stored.after) c.executionCtx.waitUntil(stored.after());
    const headers = stored.headers ?? {};
    if ("refused" in stored) {
      throw withHeaders(stored.refused, headers);
    }
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    if ("accepted" in stored) return accepted(c, stored.accepted.json, stored.accepted.lines);
    return created(c, declared.answer(submission, stored.at.toISOString()));
  });
}

/** The body as the declaration's cleaned input: JSON or a form post (415 otherwise), read and validated once. */
async function readSubmission<S extends v.GenericSchema, D extends PlatformDeps>(
  c: Context<SubmissionEnv<D>>,
  format: BodyFormat | null,
  schema: S,
): Promise<v.InferOutput<S>> {
  if (format === null) throw API_BODY_ERRORS.unsupportedMediaType(UNSUPPORTED_MEDIA_TYPE.json_or_form);
  // A form post's fields are kept for its page, which gives a refused form back with them (none
  // when the body cannot be read: it is not read a second time).
  if (format === "form") c.set("typed", {});
  const body = await readBodyObject(c, format, API_BODY_ERRORS);
  if (format === "form") c.set("typed", textFields(body));
  return validBody(schema, body, API_BODY_ERRORS);
}

/**
 * Whether the browser says the request was made by a page of this origin. A browser sends a
 * form post or a text/plain body to any origin without asking it first (no CORS preflight), so
 * a page of another site could make each of its visitors submit junk from their own addresses,
 * past the per-client limits. JSON needs a preflight, which this API never grants.
 * - Sec-Fetch-Site (sent by every current browser; a page cannot set it): "same-origin", or
 *   "none" (the person's own doing: the address bar, a bookmark). "same-site" (another
 *   subdomain, which may be anyone's) and "cross-site" are refused, as is any value not known.
 * - Without it (an older browser): Origin, when sent, must be this origin; "null" (a sandboxed
 *   frame, a privacy-preserving redirect) is not.
 * - With neither, no browser page made the request (curl, a server): it borrows no visitor's
 *   address, and the per-client limit counts it like anyone's.
 */
export function fromThisOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  const origin = request.headers.get("origin");
  return origin === null || origin === new URL(request.url).origin;
}
