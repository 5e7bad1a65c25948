import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../worker/platform/db/errors";
import { ApiError } from "../../worker/platform/http/errors";

/** An error as drizzle wraps a failed query: "Failed query: ..." with the driver's error as its cause. */
const drizzleWrapped = (cause: unknown) => new Error('Failed query: insert into "hwh_waitlist" ... params: a@example.com', { cause });

/** libSQL's error for an HTTP answer of `status` (hrana's HttpServerError inside a LibsqlError SERVER_ERROR). */
function libsqlServerError(status: number, body = "") {
  const http = Object.assign(new Error(`Server returned HTTP status ${status}${body ? `: ${body}` : ""}`), {
    name: "HttpServerError",
    status,
  });
  return Object.assign(new Error(http.message, { cause: http }), { name: "LibsqlError", code: "SERVER_ERROR" });
}

describe("isDatabaseUnavailable (issue 24 §3: which failures a join waits out)", () => {
  it.each([
    "D1_ERROR: D1 DB is overloaded. Too many requests queued.",
    "D1_ERROR: D1 DB is overloaded. Requests queued for too long.",
    "D1_ERROR: Network connection lost.",
    "D1_ERROR: Internal error in D1 DB storage caused object to be reset.",
    "D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.",
    "D1_ERROR: D1 DB reset because its code was updated.",
    "D1_ERROR: Cannot resolve D1 DB due to transient issue on remote node.",
  ])("D1's %s is unavailability, bare and wrapped by drizzle", (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    expect(isDatabaseUnavailable(drizzleWrapped(new Error(message)))).toBe(true);
  });

  it("libSQL: a refused connection, a reset, a timeout, a 5xx from the server are unavailability", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8080"), { code: "ECONNREFUSED" });
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(drizzleWrapped(new TypeError("fetch failed", { cause: refused })))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("The operation was aborted due to timeout"), { name: "TimeoutError" }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(libsqlServerError(503))).toBe(true);
    expect(isDatabaseUnavailable(libsqlServerError(502, "Bad Gateway"))).toBe(true);
    expect(isDatabaseUnavailable(drizzleWrapped(libsqlServerError(500)))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }))).toBe(true);
    // workerd's own words for a fetch to a server that is down (what the libSQL client passes on), marked retryable.
    expect(isDatabaseUnavailable(Object.assign(new Error("Network connection lost."), { remote: false, retryable: true }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("something the runtime says"), { retryable: true }))).toBe(true);
  });

  it("a 4xx from the libSQL server (a bad token, a bad request) is not: waiting would not fix it", () => {
    expect(isDatabaseUnavailable(libsqlServerError(401))).toBe(false);
    expect(isDatabaseUnavailable(libsqlServerError(400, "bad request"))).toBe(false);
  });

  it("a constraint, a statement or a validation error is never unavailability, whatever else the chain says", () => {
    const unique = new Error("D1_ERROR: UNIQUE constraint failed: hwh_waitlist.email: SQLITE_CONSTRAINT");
    expect(isDatabaseUnavailable(unique)).toBe(false);
    expect(isDatabaseUnavailable(drizzleWrapped(unique))).toBe(false);
    expect(isDatabaseUnavailable(new Error("D1_ERROR: NOT NULL constraint failed: hwh_waitlist.created_at"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("SQLITE_CONSTRAINT_UNIQUE"), { code: "SQLITE_CONSTRAINT_UNIQUE" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("D1_ERROR: no such table: hwh_waitlist"))).toBe(false);
    expect(isDatabaseUnavailable(new Error('D1_ERROR: near "selec": syntax error'))).toBe(false);
    expect(isDatabaseUnavailable(new ApiError(400, "invalid_body", "Please enter a valid email address."))).toBe(false);
    // A constraint failure reported inside a timeout's chain is still the constraint.
    expect(isDatabaseUnavailable(new Error("timed out", { cause: unique }))).toBe(false);
  });

  it("anything else is not (a bad setting, a plain failure, not an error at all)", () => {
    expect(isDatabaseUnavailable(new Error("D1_ERROR: database unavailable (simulated)"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("The database cannot be used: LIBSQL_URL is not a libSQL URL."))).toBe(false);
    expect(isDatabaseUnavailable("D1 DB is overloaded")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
