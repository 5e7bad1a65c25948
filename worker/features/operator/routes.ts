import { Hono } from "hono";
import { recordAction } from "./audit";
import { holdEntry, voidReferral } from "./entries";
import { submissionsCsv, waitlistCsv } from "./exports";
import { listedJson, submissionJson } from "./json";
import { operatorLimit, operatorOnly, type OperatorEnv } from "./operator";
import { erasePerson, lookUpPerson } from "./people";
import { formOf, listPage, listQuery, personEmail } from "./requests";
import { jsonBody, validJson } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { log } from "../../platform/log";
import {
  ADMIN_PEOPLE,
  type AdminStats,
  type EntryVoided,
  type ErasureCounts,
  type PersonRecord,
  type RetryResult,
} from "../../shared/admin";
import { holdRequestSchema, voidRequestSchema } from "../../shared/campaign-requests";
import { campaignRoutes } from "../campaigns";
import { joinsAdminRoutes } from "../joins";
import { mailDeadLetters, mailQueueRoutes } from "../mail-queue";
import { retentionStats } from "../retention";
import { webhookRoutes } from "../webhooks";
import { visitorMailOf } from "../waitlist";

/**
 * The operator API, /api/admin/* (docs/api.md "Operator API"): what the console (/admin/) shows, and
 * what scripts use. Every request counts against the client's OPERATOR_LIMITER (a rate-limit binding) first, then
 * must come from an operator (worker/features/operator/operator.ts). Answers are never stored (the API's
 * Cache-Control: no-store). The parts: worker/features/operator/ (who, requests, JSON, CSV exports) and the
 * repository's worker/features/operator/queries/index.ts.
 *
 * What names a person (look-up, erasure) is audited (worker/features/operator/queries/index.ts) and takes the
 * address in the body, never in the path, so request logs never carry it.
 */

/** An entry's id in the path: digits only (anything else is no route: 404). */
const ENTRY_ID = "/:id{[1-9][0-9]{0,14}}";

export const adminRoutes = new Hono<OperatorEnv>()
  .use("*", operatorLimit, operatorOnly)

  .get("/stats", async (c) => {
    const deps = c.get("deps");
    const [stats, visitorMail, retention, deadLetters] = await Promise.all([
      deps.repo.operator.stats(deps.now(), { networkFlag: deps.config.waitlist.networkFlag }),
      visitorMailOf(deps),
      retentionStats(deps),
      mailDeadLetters(deps, 0),
    ]);
    return c.json({ ...stats, visitorMail, retention, mailDeadLetters: deadLetters.total } satisfies AdminStats);
  })

  .get("/waitlist", async (c) => {
    const query = listQuery(c);
    const found = await c.get("deps").repo.operator.searchWaitlist({ ...query, limit: query.limit + 1 });
    return c.json(listPage(found, query.limit, listedJson));
  })

  // Issue 22: one entry held out of invite waves (or let back), the referral credit it gave voided.
  .post(`/waitlist${ENTRY_ID}/hold`, jsonBody(API_BODY_ERRORS), validJson(holdRequestSchema, API_BODY_ERRORS), async (c) =>
    c.json(await holdEntry(c.get("deps"), c.get("operator"), Number(c.req.param("id")), c.req.valid("json"))),
  )

  .post(`/waitlist${ENTRY_ID}/void-referral`, jsonBody(API_BODY_ERRORS), validJson(voidRequestSchema, API_BODY_ERRORS), async (c) =>
    c.json(
      (await voidReferral(c.get("deps"), c.get("operator"), Number(c.req.param("id")), c.req.valid("json").reason)) satisfies EntryVoided,
    ),
  )

  .get("/waitlist.csv", (c) => waitlistCsv(c))

  .get("/submissions", async (c) => {
    const form = formOf(c);
    const query = listQuery(c);
    const found = await c.get("deps").repo.operator.searchSubmissions(form.name, { ...query, limit: query.limit + 1 });
    return c.json(listPage(found, query.limit, submissionJson));
  })

  .get("/submissions.csv", (c) => submissionsCsv(c, formOf(c)))

  .post("/notifications/retry", async (c) => {
    const deps = c.get("deps");
    const requeued = await deps.repo.operator.requeueUndelivered();
    await recordAction(deps, c.get("operator"), "notifications.retried", { requeued });
    return c.json({ requeued } satisfies RetryResult);
  })

  .post(ADMIN_PEOPLE.lookup, jsonBody(API_BODY_ERRORS), async (c) => {
    const record = await lookUpPerson(c.get("deps"), await personEmail(c), c.get("operator").name);
    return c.json(record satisfies PersonRecord);
  })

  .post(ADMIN_PEOPLE.erase, jsonBody(API_BODY_ERRORS), async (c) => {
    const operator = c.get("operator");
    const counts = await erasePerson(c.get("deps"), await personEmail(c), operator.name);
    // The log names the operator by id (a user id, or "admin-key"): log lines carry no address.
    log("info", "admin.person_erased", { operator: operator.id, ...counts });
    return c.json(counts satisfies ErasureCounts);
  })

  // The mail queue's dead letters and their retry (worker/features/mail-queue/routes.ts).
  .route("/mail", mailQueueRoutes)

  // Launch day: drafts, previews, tests, sending and its report (worker/features/campaigns/routes.ts).
  .route("/campaigns", campaignRoutes)
  // Issue 24: the joins waiting for the database, the dead ones and their retry.
  .route("/joins", joinsAdminRoutes)
  // Issue 25: signed webhooks and Slack (worker/features/webhooks/routes.ts).
  .route("/webhooks", webhookRoutes);
