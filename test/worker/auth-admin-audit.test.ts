// The admin API under /auth/v1/admin leaves a trace of what it reads and erases: an audit record and a log line, never an address.
import { describe, expect, it, vi } from "vitest";
import type { AuditRecord } from "../../worker/platform/db/schema";
import { ADMIN_KEY, authCall, signIn } from "../support/auth";
import { testRepository, uniqueEmail } from "../support/worker";

const admin = { headers: { Authorization: `Bearer ${ADMIN_KEY}` } };

/** The log lines written (as parsed JSON) while `work` runs. */
async function logLinesDuring(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  await work();
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The audit records of `action` whose details name `userId`, newest first. */
async function auditOf(action: string, match: (details: Record<string, unknown>) => boolean): Promise<AuditRecord[]> {
  const trail = await testRepository().operator.auditTrail(500);
  return trail.filter((record) => record.action === action && match(record.details));
}

describe("/auth/v1/admin audit trail", () => {
  it("DELETE /admin/users/:id records the erasure (action, operator, time, user id) and logs it, without the address", async () => {
    const email = uniqueEmail("audit-delete");
    const session = await signIn(email);
    const before = Date.now();

    let status = 0;
    const lines = await logLinesDuring(async () => {
      status = (await authCall("DELETE", `/admin/users/${session.user.id}`, undefined, admin)).status;
    });
    expect(status).toBe(200);

    const records = await auditOf("auth_user.deleted", (details) => details.user_id === session.user.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operator: "admin-key", subjectHash: null, details: { user_id: session.user.id, users: 1 } });
    expect(Date.parse(records[0]!.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(records[0])).not.toContain(email);

    const logged = lines.filter((line) => line.event === "auth.admin_action");
    expect(logged).toEqual([expect.objectContaining({ action: "auth_user.deleted", operator: "admin-key", user_id: session.user.id })]);
    expect(JSON.stringify(lines)).not.toContain(email);
  });

  it("a DELETE that finds nobody erases nothing and records nothing", async () => {
    const id = crypto.randomUUID();
    expect((await authCall("DELETE", `/admin/users/${id}`, undefined, admin)).status).toBe(404);
    expect(await auditOf("auth_user.deleted", (details) => details.user_id === id)).toHaveLength(0);
  });

  it("GET /admin/users records the listing with its counts and logs it, without any address", async () => {
    const email = uniqueEmail("audit-list");
    await signIn(email);
    const marker = 7;
    let total = 0;
    const lines = await logLinesDuring(async () => {
      const response = await authCall("GET", `/admin/users?page=1&per_page=${marker}`, undefined, admin);
      expect(response.status).toBe(200);
      total = Number(response.headers.get("X-Total-Count"));
    });

    const records = await auditOf("auth_users.listed", (details) => details.per_page === marker && details.total === total);
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(records[0]).toMatchObject({
      operator: "admin-key",
      details: { page: 1, per_page: marker, users: Math.min(marker, total), total },
    });
    expect(JSON.stringify(records[0])).not.toContain("@");

    const logged = lines.filter((line) => line.event === "auth.admin_action");
    expect(logged).toEqual([expect.objectContaining({ action: "auth_users.listed", operator: "admin-key", per_page: marker, total })]);
    expect(JSON.stringify(lines)).not.toContain("@");
  });

  it("GET /admin/users/:id records the look-up by user id, without the address", async () => {
    const email = uniqueEmail("audit-read");
    const session = await signIn(email);
    expect((await authCall("GET", `/admin/users/${session.user.id}`, undefined, admin)).status).toBe(200);
    const records = await auditOf("auth_user.read", (details) => details.user_id === session.user.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ operator: "admin-key", details: { user_id: session.user.id } });
    expect(JSON.stringify(records[0])).not.toContain(email);
  });

  it("without the key nothing is recorded", async () => {
    const before = (await testRepository().operator.auditTrail(1000)).length;
    expect((await authCall("GET", "/admin/users", undefined, { headers: { Authorization: "Bearer wrong" } })).status).toBe(403);
    expect((await testRepository().operator.auditTrail(1000)).length).toBe(before);
  });
});
