/**
 * Which database errors say "not now" rather than "not this": the database refused the call for
 * load or could not be reached, so the same write may succeed later (issue 24 §3: a join then
 * waits on the joins queue, worker/features/joins). Everything else (a constraint, a bad
 * statement, a missing table, a bad setting) is the write's own problem and is never waited out.
 *
 * The errors come wrapped (drizzle's "Failed query: ...", libSQL's LibsqlError around the hrana
 * client's error, undici's "fetch failed" around the socket's), so every cause is read.
 */

/**
 * D1's transient errors (developers.cloudflare.com/d1/observability/debug-d1, "Error list": the
 * ones whose recommended action is to retry), as D1 words them after "D1_ERROR: ".
 */
const D1_UNAVAILABLE = [
  /D1 DB is overloaded/i, // "D1 DB is overloaded. Too many requests queued." / "... Requests queued for too long."
  /Too many requests queued/i,
  /Requests queued for too long/i,
  /Network connection lost/i,
  /storage caused object to be reset/i, // "Internal error in D1 DB storage caused object to be reset."
  /caused object to be reset/i, // "D1 DB storage operation exceeded timeout which caused object to be reset."
  /reset because its code was updated/i, // "D1 DB reset because its code was updated."
  /exceeded timeout/i,
  /transient issue on remote node/i, // "Cannot resolve D1 DB due to transient issue on remote node."
  /Internal error while starting up D1 DB storage/i,
  /D1_ERROR: internal error/i,
];

/** A connection that failed or timed out (libSQL over HTTP or WebSockets, Node's sockets, the fetch API). */
const CONNECTION_FAILED = [
  /^fetch failed$/i, // undici: the request never got an answer
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/,
  /socket hang up/i,
  /connection (was )?(refused|reset|closed)/i,
  /timed? ?out/i, // "The operation was aborted due to timeout", "Request timed out"
  /database is locked/i, // SQLITE_BUSY: the primary is busy with other writers
];

/** Error codes (LibsqlError.code, Node's error.code, undici's) of the same two families. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "HRANA_WEBSOCKET_ERROR",
  "HRANA_CLOSED_ERROR",
  "SQLITE_BUSY",
]);

/** A constraint, a type or a statement problem: never a matter of waiting (checked first, at every level). */
const NEVER =
  /constraint failed|SQLITE_CONSTRAINT|UNIQUE constraint|NOT NULL constraint|CHECK constraint|FOREIGN KEY|syntax error|no such (table|column)|datatype mismatch|too many SQL variables/i;

type Described = { message: string; name: string; code: unknown; status: unknown; retryable: unknown };

function described(value: unknown): Described | null {
  if (typeof value !== "object" || value === null) return null;
  const error = value as Record<string, unknown>;
  return {
    message: typeof error.message === "string" ? error.message : "",
    name: typeof error.name === "string" ? error.name : "",
    code: error.code,
    status: error.status,
    retryable: error.retryable,
  };
}

/** The error and its causes, outermost first (at most 10 deep: a cause cycle ends there). */
function chain(error: unknown): Described[] {
  const found: Described[] = [];
  for (let cause = error, depth = 0; depth < 10; depth += 1) {
    const one = described(cause);
    if (!one) break;
    found.push(one);
    cause = (cause as { cause?: unknown }).cause;
  }
  return found;
}

/** Whether one level of an error says the database is unavailable or overloaded. */
function saysUnavailable({ message, name, code, status, retryable }: Described): boolean {
  // workerd marks a connection that failed or dropped (a fetch to a libSQL server that is down: "Network connection lost.").
  if (name === "TimeoutError" || retryable === true) return true;
  if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
  // libSQL's SERVER_ERROR (hrana's HttpServerError): the server answered a 5xx (a 4xx is ours: auth, a bad request).
  if (typeof status === "number" && status >= 500 && status <= 599) return true;
  if (/Server returned HTTP status 5\d\d/.test(message)) return true;
  return D1_UNAVAILABLE.some((pattern) => pattern.test(message)) || CONNECTION_FAILED.some((pattern) => pattern.test(message));
}

/**
 * Whether a database call failed because the database is overloaded or cannot be reached right
 * now (D1's overload, timeout and reset errors; a libSQL server that refuses the connection,
 * times out or answers 5xx), walking the error's causes. Never true for a constraint, a
 * validation or a statement error, whatever else the chain says.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const levels = chain(error);
  if (levels.some(({ message, code }) => NEVER.test(message) || (typeof code === "string" && code.startsWith("SQLITE_CONSTRAINT"))))
    return false;
  return levels.some(saysUnavailable);
}

/**
 * The error of a database call that outlived its deadline (withDeadline). Named TimeoutError, so
 * isDatabaseUnavailable counts it as the database refusing for load.
 */
export class DatabaseDeadlineError extends Error {
  override name = "TimeoutError";
  constructor(ms: number) {
    super(`The database did not answer within ${ms} ms (timed out).`);
  }
}

/**
 * `work`, or a DatabaseDeadlineError once `ms` pass without it settling (issue 24 §3: a database
 * that accepts the call and does not answer is a database that refused it). The work itself is
 * not stopped: it may still complete later, and whoever calls this must be fine with that (a join
 * stored late is a duplicate its waiting copy meets: worker/features/joins). The timer is cleared
 * as soon as the work settles, and a late failure of the work is nobody's: it is taken here, so it
 * never surfaces as an unhandled rejection.
 */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseDeadlineError(ms)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
