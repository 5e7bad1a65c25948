import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { jsonBody, validJson } from "../http/body";
import { API_BODY_ERRORS, ApiError, methodNotAllowed, publicFormLimitErrors } from "../http/errors";
import { limitPerClient } from "../http/rate-limit";
import { screenSubmission } from "../http/turnstile";
import { deliverNew, firstClaim } from "../mail/outbox";
import { WAITLIST_MESSAGES, waitlistSchema } from "../shared/waitlist";

/**
 * POST /api/waitlist {email, source?}: spec §5 and §7. Per client at most WAITLIST_RATE_LIMIT
 * joins per window; a filled honeypot is answered as a success and dropped; Turnstile, when
 * configured, is checked before anything is stored. The entry is stored (and its notification
 * claimed) in one statement; the notification is sent after the response, so the visitor never
 * waits for e-mail.
 */
export const waitlistRoutes = new Hono<AppEnv>()
  .post(
    "/",
    limitPerClient((c) => ({ name: "waitlist", ...c.get("deps").config.publicLimits.waitlist }), publicFormLimitErrors(WAITLIST_MESSAGES.failure)),
    jsonBody(API_BODY_ERRORS),
    validJson(waitlistSchema, API_BODY_ERRORS),
    async (c) => {
      const input = c.req.valid("json");
      const deps = c.get("deps");
      const { repo, now } = deps;
      if ((await screenSubmission(c, input)) === "bot") return c.json({ email: input.email, joined_at: now().toISOString() }, 201);

      let result;
      try {
        result = await repo.joinWaitlist({ email: input.email, source: input.source }, firstClaim(deps));
      } catch (error) {
        throw new ApiError(500, "internal_error", WAITLIST_MESSAGES.failure, {}, {}, { cause: error });
      }
      if (result.outcome === "duplicate") throw new ApiError(409, "already_joined", WAITLIST_MESSAGES.duplicate);

      // Not claimed: another request is sending this entry's notification right now.
      if (result.claimed) c.executionCtx.waitUntil(deliverNew(deps, { kind: "waitlist", record: result.entry }, result.budgetUsed));
      return c.json({ email: result.entry.email, joined_at: result.entry.createdAt }, 201);
    },
  )
  .all("/", methodNotAllowed(["POST"]));

