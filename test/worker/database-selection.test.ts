import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../worker/db/client";
import { call } from "../support/worker";

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
