/**
 * The console's words for the joins that wait for the database (issue 24 §3): how many wait and
 * since when, the dead ones and their "Retry". The numbers in them are written by ./format.ts.
 */
import { formatTime, plural } from "./format";

export const joins = {
  title: "Joins waiting for the database",
  intro:
    "When the database cannot take a join (overloaded or unreachable), the visitor is told they joined and the join waits on a queue, which stores it as soon as the database takes it. A join the queue gave up on after its retries (about a day) is listed here until you retry it.",
  loading: "Loading the waiting joins…",
  none: "No join is waiting: every join is stored.",
  waiting: (count: number, oldestAt: string | null) =>
    `${plural(count, "join")} waiting${oldestAt ? `, the oldest since ${formatTime(oldestAt)}` : ""}.`,
  unknown: "The count of waiting joins cannot be read right now; the joins still wait on the queue.",
  dead: {
    title: "Joins the queue gave up on",
    caption: "Dead joins, oldest first",
    none: "None.",
    columns: { email: "E-mail", source: "Placement", joined: "Joined", died: "Given up" },
    // A child's join whose request to a parent waited: the address is the parent's.
    parentRequest: "A child's request to this parent",
    retry: "Retry",
    retryOne: (email: string) => `Retry the join of ${email}`,
    retryAll: "Retry all",
    retrying: "Retrying…",
    retried: (count: number) => `${plural(count, "join")} put back on the queue.`,
    notAudited: "The database did not answer, so the audit trail does not have it (the log does).",
  },
} as const;
