// Issue 23 §6 through the parents' own path (worker/features/parents): what the console shows while a
// child's request waits, after a parent agrees and after one says no. The figures, the list, the CSV and
// the look-up each read their part; nothing here is stored by hand.
import { describe, expect, it } from "vitest";
import type { AdminPage, AdminStats, AdminWaitlistEntry, PersonRecord } from "../../worker/shared/admin";
import { call, uniqueEmail } from "../support/worker";
import { ask, press, requestOf, tokenOf } from "./parents-support";

const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${ADMIN_KEY}`);
  return call(`/api/admin${path}`, { ...init, headers }, { OPERATOR_EMAILS: "operator@example.com" });
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

const stats = async () => json<AdminStats>(await admin("/stats"));
const lookUp = async (email: string) =>
  json<PersonRecord>(
    await admin("/people/lookup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email }) }),
  );

describe("the console through a parent's answers (issue 23)", () => {
  it("a waiting request is counted pending and is in no list, CSV or look-up entry; agreeing makes a parent's entry with its consent record; saying no is counted", async () => {
    const before = await stats();
    const agreeing = uniqueEmail("agreeing-parent");
    const refusing = uniqueEmail("refusing-parent");
    await ask(agreeing, { band: "under_13", country: "US" });
    await ask(refusing, { band: "13_15", country: "DE" });

    const waiting = await stats();
    expect(waiting.parents.pending - before.parents.pending).toBe(2);
    expect(waiting.waitlist.total).toBe(before.waitlist.total);
    const csv = await (await admin("/waitlist.csv")).text();
    expect(csv).not.toContain(agreeing);
    expect(csv).not.toContain(refusing);
    expect((await lookUp(agreeing)).waitlist).toBeNull();
    expect((await lookUp(agreeing)).parental_requests).toMatchObject([{ age_band: "under_13", country: "US" }]);

    expect((await press(await tokenOf(await requestOf(agreeing)), "agree")).status).toBeLessThan(400);
    expect((await press(await tokenOf(await requestOf(refusing)), "decline")).status).toBeLessThan(400);

    const after = await stats();
    const change = (read: (s: AdminStats) => number) => read(after) - read(before);
    expect(change((s) => s.parents.pending)).toBe(0);
    expect(change((s) => s.parents.today.agreed)).toBe(1);
    expect(change((s) => s.parents.today.declined)).toBe(1);
    expect(change((s) => s.ages.onBehalfOfChild.total)).toBe(1);
    expect(change((s) => s.ages.onBehalfOfChild.byBand.under_13)).toBe(1);
    expect(change((s) => s.waitlist.total)).toBe(1);

    const listed = (await json<AdminPage<AdminWaitlistEntry>>(await admin(`/waitlist?q=${encodeURIComponent(agreeing)}`))).items;
    expect(listed).toMatchObject([{ email: agreeing, age_band: "under_13", country: "US", on_behalf_of_child: true, referral_code: null }]);
    const record = await lookUp(agreeing);
    expect(record.consent).toEqual({ at: expect.any(String), by: agreeing, on_behalf_of_child: true });
    expect(record.parental_requests).toEqual([]);
    expect(await lookUp(refusing)).toMatchObject({ waitlist: null, consent: null, parental_requests: [] });
  });
});
