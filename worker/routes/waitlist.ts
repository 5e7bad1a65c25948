import { Hono } from "hono";
import { WAITLIST_MESSAGES, validateWaitlistInput } from "../shared/waitlist";
import { ApiError, methodNotAllowed } from "../http/errors";
import { readJsonObject, rejectUnknownKeys } from "../http/json-body";
import { notifyNow } from "../mail/delivery";
import type { AppEnv } from "../services";

/**
 * POST /api/waitlist {email, source?}: spec §5 and §7. The entry is stored first; the
 * notification is sent after the response, so the visitor never waits for e-mail.
 */
export const waitlistRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const body = await readJsonObject(c.req.raw);
  rejectUnknownKeys(body, ["email", "source"]);
  const input = validateWaitlistInput(body.email, body.source);
  if (!input.ok) throw new ApiError(400, "validation_failed", input.message, { field: input.field });

  const { repo, delivery, now } = c.get("services");
  let result;
  try {
    result = await repo.joinWaitlist(input.value, now());
  } catch (error) {
    throw new ApiError(500, "internal_error", WAITLIST_MESSAGES.failure, { cause: error });
  }
  if (result.outcome === "duplicate") throw new ApiError(409, "already_joined", WAITLIST_MESSAGES.duplicate);

  c.executionCtx.waitUntil(notifyNow(delivery, "waitlist", result.entry.id));
  return c.json({ email: result.entry.email, joined_at: result.entry.createdAt }, 201);
}).all("/", methodNotAllowed(["POST"]));
