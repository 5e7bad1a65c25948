import { Hono } from "hono";
import { WAITLIST_MESSAGES, validateWaitlistInput } from "../shared/waitlist";
import { ApiError, methodNotAllowed } from "../http/errors";
import { readJsonObject, rejectUnknownKeys } from "../http/json-body";
import { deliverClaimed } from "../mail/delivery";
import type { AppEnv } from "../services";

/**
 * POST /api/waitlist {email, source?}: spec §5 and §7. The entry is stored (and its
 * notification claimed) in one statement; the notification is sent after the response, so the
 * visitor never waits for e-mail.
 */
export const waitlistRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const body = await readJsonObject(c.req.raw);
  rejectUnknownKeys(body, ["email", "source"]);
  const input = validateWaitlistInput(body.email, body.source);
  if (!input.ok) throw new ApiError(400, "validation_failed", input.message, { field: input.field });

  const { repo, delivery, config, now } = c.get("services");
  let result;
  try {
    result = await repo.joinWaitlist(input.value, { now: now(), lockMs: config.notify.lockMs });
  } catch (error) {
    throw new ApiError(500, "internal_error", WAITLIST_MESSAGES.failure, { cause: error });
  }
  if (result.outcome === "duplicate") throw new ApiError(409, "already_joined", WAITLIST_MESSAGES.duplicate);

  // Not claimed: another request is sending this entry's notification right now.
  if (result.claimed) c.executionCtx.waitUntil(deliverClaimed(delivery, "waitlist", result.entry));
  return c.json({ email: result.entry.email, joined_at: result.entry.createdAt }, 201);
}).all("/", methodNotAllowed(["POST"]));
