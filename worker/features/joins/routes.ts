import { Hono } from "hono";
import * as v from "valibot";
import type { Deps } from "../../deps";
import { jsonBody, validJson } from "../../platform/http/body";
import { API_BODY_ERRORS } from "../../platform/http/errors";
import { describeError, log } from "../../platform/log";
import type { DeadJoinJson, JoinsReport, JoinsRetried, WaitingJoins } from "../../shared/joins";
import { recordDoneAction, type OperatorEnv } from "../operator";
import { DEAD_LIST_LIMIT } from "./backlog";

/**
 * The waiting joins for health and the console, and the operator's routes under
 * /api/admin/joins (mounted by worker/features/operator/routes.ts behind its limit and operator check):
 * - GET /: how many wait, the oldest's age, the dead ones (at most DEAD_LIST_LIMIT, oldest first);
 * - POST /retry {ids?}: the dead joins named (all listed ones when none) back on the joins queue,
 *   waiting again; audited. The consumer stores them as any waiting join (an address listed
 *   meanwhile is dropped quietly). Neither touches the database but for the audit record: while
 *   the database is down the list answers, and a retry is done all the same, its record logged
 *   (`audit.not_recorded`) and the answer saying `audited: false`.
 */

/** How many joins wait and since when (health, the console); a backlog that does not answer says `known: false` (logged). */
export async function waitingJoinsOf(deps: Deps): Promise<WaitingJoins> {
  try {
    const { waiting, oldestAt, dead } = await deps.joinBacklog.stats();
    const age = oldestAt === null ? null : Math.max(0, Math.round((deps.now().getTime() - oldestAt) / 1000));
    return { known: true, waiting, oldest_at: oldestAt === null ? null : new Date(oldestAt).toISOString(), oldest_age_seconds: age, dead };
  } catch (error) {
    log("error", "joins.backlog_unreadable", { error: describeError(error) });
    return { known: false, waiting: 0, oldest_at: null, oldest_age_seconds: null, dead: 0 };
  }
}

/** A retry's body: message ids (UUIDs), at most the list's length; none: all. */
const retrySchema = v.strictObject({
  ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.uuid("Each id is a dead join's id."))), v.maxLength(DEAD_LIST_LIMIT))),
});

export const joinsAdminRoutes = new Hono<OperatorEnv>()
  .get("/", async (c) => {
    const deps = c.get("deps");
    const [counts, dead] = await Promise.all([waitingJoinsOf(deps), deps.joinBacklog.dead(DEAD_LIST_LIMIT)]);
    const deadJoins = dead.map(
      ({ message, diedAt }): DeadJoinJson => ({
        id: message.id,
        kind: message.type,
        email: message.type === "join" ? message.join.email : message.parent.parentEmail,
        source: message.type === "join" ? message.join.source : null,
        joined_at: message.at,
        died_at: new Date(diedAt).toISOString(),
      }),
    );
    return c.json({ ...counts, dead_joins: deadJoins } satisfies JoinsReport);
  })

  .post("/retry", jsonBody(API_BODY_ERRORS), validJson(retrySchema, API_BODY_ERRORS), async (c) => {
    const deps = c.get("deps");
    const { ids } = c.req.valid("json");
    const dead = await deps.joinBacklog.dead(DEAD_LIST_LIMIT, ids);
    const messages = dead.map(({ message }) => message);
    // On the queue first, then out of the dead list: a failure between leaves a join in both
    // (stored once: its address is then listed), never in neither.
    await deps.queues.joins.enqueueAll(messages);
    await deps.joinBacklog.revive(messages.map(({ id }) => id));
    const audited = await recordDoneAction(deps, c.get("operator"), "joins.retried", { retried: messages.length });
    return c.json({ retried: messages.length, audited } satisfies JoinsRetried);
  });
