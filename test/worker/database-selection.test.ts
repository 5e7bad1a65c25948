import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../worker/platform/db/client";
import { call } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

describe("database selection", () => {
  it("uses D1 by default", () => {
    expect(openDatabase({ DB: env.DB, LIBSQL_URL: "" }).driver).toBe("d1");
  });

  it("uses libSQL (the web client, over HTTP) when LIBSQL_URL is set", async () => {
    expect(openDatabase({ DB: env.DB, LIBSQL_URL: "libsql://db.example.turso.io", LIBSQL_AUTH_TOKEN: "t" }).driver).toBe("libsql");

    // The libSQL web client really runs in workerd: its request reaches fetch, which fails here.
    const requests: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      requests.push(new Request(input as RequestInfo).url);
      throw new TypeError("network unreachable (simulated)");
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/api/health", {}, { LIBSQL_URL: "libsql://db.example.turso.io", LIBSQL_AUTH_TOKEN: "t" });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ database: { driver: "libsql", reachable: false } });
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]).toMatch(/^https:\/\/db\.example\.turso\.io\//);
  });
});

describe("a LIBSQL_URL the worker cannot use", () => {
  it.each([
    ["a file: URL", "file:local.db", /file: URL.*turso dev/],
    ["a typo", "libsq//db.example.turso.io", /LIBSQL_URL cannot be used/],
    ["an unsupported scheme", "ftp://db.example", /LIBSQL_URL cannot be used/],
  ])(
    "%s: health answers 503 naming the problem (never the value); the pages still work; the API fails cleanly",
    async (_case, url, reason) => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      vi.spyOn(console, "log").mockImplementation(() => {});
      const overrides = { LIBSQL_URL: url, LIBSQL_AUTH_TOKEN: "secret-token" };
      expect(openDatabase({ DB: env.DB, ...overrides })).toMatchObject({
        driver: "libsql",
        db: null,
        problem: expect.stringMatching(reason),
      });

      const health = await call("/api/health", {}, overrides);
      expect(health.status).toBe(503);
      const body = (await health.json()) as {
        error: { code: string; message: string };
        database: { driver: string; reachable: boolean; problem: string };
      };
      expect(body.database).toMatchObject({ driver: "libsql", reachable: false, problem: expect.stringMatching(reason) });
      expect(body.error.message).toMatch(reason);
      expect(JSON.stringify(body)).not.toContain("secret-token");
      if (!url.startsWith("file:")) expect(JSON.stringify(body)).not.toContain(url);

      // Not every route: the site's pages do not need the database.
      expect((await call("/", {}, overrides)).status).not.toBe(500);
      // A route that does answers its own failure, in its own format.
      const join = await call(
        "/api/waitlist",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...ADULT_ANSWER, email: "a@example.com" }),
        },
        overrides,
      );
      expect(join.status).toBe(500);
      expect(await join.json()).toMatchObject({ error: { code: "internal_error" } });
    },
  );
});
