import { Hono, type MiddlewareHandler } from "hono";
import { jsonBody, validJson } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import {
  MAIL_DEAD_LETTERS_MAX,
  type MailDeadLetterList,
  type MailDeadLetterRetried,
  mailDeadLetterRetrySchema,
} from "../../shared/mail-queue";
import { type OperatorEnv, recordAction } from "../operator";
import { mailDeadLetters, retryMailDeadLetters } from "./dead-letters";

/**
 * The operator's mail dead letters, mounted under /api/admin/mail (worker/features/operator/routes.ts:
 * the operator's rate limit and sign-in apply): the list, and "retry" (one, some or all), audited.
 */

type BodyEnv = { Variables: { requestBody?: Record<string, unknown> } };

/** Like jsonBody, but a request with no body at all is `{}` (retry all). */
const optionalJsonBody: MiddlewareHandler<BodyEnv> = async (c, next) => {
  if (c.req.raw.body === null && !c.req.header("content-type")) {
    c.set("requestBody", {});
    return next();
  }
  return jsonBody(API_BODY_ERRORS)(c, next);
};

export const mailQueueRoutes = new Hono<OperatorEnv>()
  .get("/dead-letters", async (c) => {
    const { total, items } = await mailDeadLetters(c.get("deps"), MAIL_DEAD_LETTERS_MAX);
    return c.json({ total, dead_letters: items } satisfies MailDeadLetterList);
  })

  .post("/dead-letters/retry", optionalJsonBody, validJson(mailDeadLetterRetrySchema, API_BODY_ERRORS), async (c) => {
    const deps = c.get("deps");
    const rows = c.req.valid("json").rows;
    const requeued = await retryMailDeadLetters(deps, rows ? rows.map((row) => ({ kind: row.kind, id: row.row_id })) : "all");
    await recordAction(deps, c.get("operator"), "mail_dead_letters.retried", { rows: rows ?? "all", requeued });
    return c.json({ requeued } satisfies MailDeadLetterRetried);
  });
