/**
 * The joins waiting for the database (issue 24 §3), as health and the console (web/src/admin)
 * read them: /api/admin/joins and its retry. Field names are the API's (snake_case).
 */

/** Where the console reads the waiting joins and the dead ones, and puts dead ones back on the queue. */
export const ADMIN_JOINS = { list: "/api/admin/joins", retry: "/api/admin/joins/retry" } as const;

/**
 * How many joins wait on the joins queue and how old the oldest is (seconds; null: none), how
 * many the queue gave up on (dead); `known` false when the count could not be read (the backlog
 * did not answer: the joins still wait on the queue, the count is best effort).
 */
export type WaitingJoins = { known: boolean; waiting: number; oldest_at: string | null; oldest_age_seconds: number | null; dead: number };

/**
 * A dead join as the console lists it: the message id, whether it is a join or a child's parental
 * request ("parent": the address is the parent's), the address, when the visitor was answered and
 * when the queue gave up.
 */
export type DeadJoinJson = {
  id: string;
  kind: "join" | "parent";
  email: string;
  source: string | null;
  joined_at: string;
  died_at: string;
};

/** GET /api/admin/joins. */
export type JoinsReport = WaitingJoins & { dead_joins: DeadJoinJson[] };

/** POST /api/admin/joins/retry's body: the dead joins to put back on the queue (by id), or all when `ids` is left out. */
export type JoinsRetryRequest = { ids?: string[] };

/**
 * What a retry did: how many dead joins went back on the queue, and whether the audit trail
 * recorded it (false while the database is down: the retry is done, its record only logged).
 */
export type JoinsRetried = { retried: number; audited: boolean };
