import { describe, expect, it, vi } from "vitest";
import { brokenDatabase, call } from "../support/worker";
import { PROVIDER_ENV } from "../support/fake-provider";

describe("GET /api/health", () => {
  it("answers 200 with the database reachable and the dev mailbox active outside production", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      status: "ok",
      database: { driver: "d1", reachable: true },
      mail: { transport: "dev-mailbox" },
    });
  });

  it("reports the provider transport when a token is configured", async () => {
    const res = await call("/api/health", {}, PROVIDER_ENV);
    expect(await res.json()).toMatchObject({ mail: { transport: "provider" } });
  });

  it("reports an unconfigured transport in production without a token", async () => {
    const res = await call("/api/health", {}, { ENVIRONMENT: "production" });
    expect(await res.json()).toMatchObject({ mail: { transport: "unconfigured" } });
  });

  it("answers 503 when the database is unreachable", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await call("/api/health", {}, { DB: brokenDatabase() });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { code: "database_unreachable" },
      database: { driver: "d1", reachable: false },
    });
  });
});
