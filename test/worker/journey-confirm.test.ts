import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { joinConfirmed, journeyOf, leaveWaitlist, resendConfirmation, runJoinerOutbox } from "../../worker/features/waitlist";
import { confirmEntry } from "../../worker/features/waitlist/confirm";
import { ConfirmTokenError, confirmationToken, readConfirmationToken } from "../../worker/features/waitlist/tokens";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { postJson, testRepository, uniqueEmail, testEnv } from "../support/worker";
import { ADULT_ANSWER } from "../support/age";

const repo = testRepository();
const deps = () => createDeps(env);

/** Joins through the API and returns the entry with a fresh confirmation token. */
async function joined(email: string, ref?: string) {
  expect((await postJson("/api/waitlist", ref ? { ...ADULT_ANSWER, email, ref } : { ...ADULT_ANSWER, email })).status).toBe(201);
  const entry = (await repo.findWaitlistEntry(email.toLowerCase()))!;
  // As the e-mail's link is made: carrying the join whose referral it may count.
  return { entry, token: await confirmationToken(deps(), entry.id, entry.referralJoin) };
}

async function confirmedReferrer(email: string) {
  const { entry, token } = await joined(email);
  await confirmEntry(deps(), token, null);
  return (await repo.waitlist.entryById(entry.id))!;
}

describe("confirming (issue 16)", () => {
  it("20 concurrent confirms of one token confirm once", async () => {
    const { entry, token } = await joined(uniqueEmail("race"));
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => confirmEntry(deps(), token, "203.0.113.9")));
    expect(outcomes.filter((o) => o.outcome === "confirmed")).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === "already")).toHaveLength(19);
    expect(new Set(outcomes.map((o) => o.entryId))).toEqual(new Set([entry.id]));
    const after = (await repo.waitlist.entryById(entry.id))!;
    expect(after.rankKey).toBe(2 * after.confirmSeq!);
    expect(after.referralCode).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(await confirmEntry(deps(), token, null)).toEqual({ outcome: "already", entryId: entry.id });
  });

  it("a referral counts once however many confirms race, and each of several friends racing counts", async () => {
    const referrer = await confirmedReferrer(uniqueEmail("referrer"));
    const friend = await joined(uniqueEmail("friend"), referrer.referralCode!);
    await Promise.all(Array.from({ length: 20 }, () => confirmEntry(deps(), friend.token, "198.51.100.7")));
    expect((await repo.waitlist.entryById(referrer.id))!).toMatchObject({ referralsConfirmed: 1, rankKey: referrer.rankKey! - 11 });
    const others = await Promise.all([1, 2, 3, 4].map((n) => joined(uniqueEmail(`friend${n}`), referrer.referralCode!)));
    await Promise.all(others.flatMap(({ token }) => [confirmEntry(deps(), token, null), confirmEntry(deps(), token, null)]));
    expect((await repo.waitlist.entryById(referrer.id))!).toMatchObject({ referralsConfirmed: 5, rankKey: referrer.rankKey! - 51 });
    const journey = await journeyOf(deps(), referrer.email, "http://localhost");
    expect(journey).toMatchObject({ status: "confirmed", position: 1, referrals_confirmed: 5, referrals_pending: 0 });
    expect(journey.referral_link).toBe(`http://localhost/?ref=${referrer.referralCode}`);
  });

  it("a self-referral through every mailbox variant (case, Gmail dots, +tags, googlemail) counts zero", async () => {
    const stamp = Date.now().toString(36);
    const referrer = await confirmedReferrer(`self.ref${stamp}@gmail.com`);
    const variants = [
      `SelfRef${stamp}+Case@Gmail.com`,
      `s.e.l.f.ref${stamp}@gmail.com`,
      `selfref${stamp}+tag@gmail.com`,
      `self.ref${stamp}@googlemail.com`,
    ];
    for (const email of variants) {
      const { token } = await joined(email, referrer.referralCode!);
      expect((await confirmEntry(deps(), token, null)).outcome).toBe("confirmed");
    }
    expect((await repo.waitlist.entryById(referrer.id))!).toMatchObject({ referralsConfirmed: 0, rankKey: referrer.rankKey });
    expect((await journeyOf(deps(), referrer.email)).referrals_pending).toBe(0);
  });

  it("logs the network flag when a referrer's confirmed referrals from one network reach REFERRAL_NETWORK_FLAG, not one before, not across two networks", async () => {
    const flagAt2 = () => createDeps({ ...env, REFERRAL_NETWORK_FLAG: "2" } as Env);
    const warned: Array<Record<string, unknown>> = [];
    vi.spyOn(console, "warn").mockImplementation((line: unknown) => void warned.push(JSON.parse(String(line))));
    const flags = () => warned.filter((line) => line.event === "referral.network_flagged");
    const referrer = await confirmedReferrer(uniqueEmail("flag-referrer"));
    const [one, two, three] = await Promise.all([1, 2, 3].map((n) => joined(uniqueEmail(`flag-friend${n}`), referrer.referralCode!)));
    await confirmEntry(flagAt2(), one!.token, "192.0.2.10");
    expect(flags()).toEqual([]);
    // Another network: two referrals, but one from each.
    await confirmEntry(flagAt2(), two!.token, "192.0.2.77");
    expect(flags()).toEqual([]);
    // The second from the first network: flagged, with the count and the threshold, never the network.
    await confirmEntry(flagAt2(), three!.token, "192.0.2.10");
    expect(flags()).toEqual([expect.objectContaining({ level: "warn", referrals: 2, threshold: 2 })]);
    expect(Object.keys(flags()[0]!).sort()).toEqual(["event", "level", "referrals", "threshold", "time"]);
  });

  it("expired, tampered and unknown tokens are refused with their own problem and change nothing", async () => {
    const { entry, token } = await joined(uniqueEmail("tokens"));
    const later = createDeps(env, () => new Date(Date.now() + 8 * 86_400_000));
    const problem = (work: Promise<unknown>) =>
      work.then(
        () => null,
        (error: unknown) => (error instanceof ConfirmTokenError ? [error.problem, error.status] : error),
      );
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    const otherId = token.replace(/^\d+/, String(entry.id + 1));
    // The last character's two spare bits: the same 32 bytes, spelled as this server never does.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(token.at(-1)!);
    const respelled = token.slice(0, -1) + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last ^ 1];
    expect(await problem(confirmEntry(later, token, null))).toEqual(["expired", 410]);
    for (const bad of [flipped, respelled, otherId, "", "abc", `${token}x`, token.replaceAll(".", "-")]) {
      expect(await problem(confirmEntry(deps(), bad, null)), bad).toEqual(["invalid", 400]);
    }
    const unknown = await confirmationToken(deps(), 2_000_000_000);
    expect(await problem(confirmEntry(deps(), unknown, null))).toEqual(["unknown", 404]);
    expect(await repo.waitlist.entryById(entry.id)).toEqual(entry);
    expect(await readConfirmationToken(deps(), token)).toEqual({ entryId: entry.id });
    // Left the list: the token's entry is gone.
    expect(await leaveWaitlist(deps(), entry.email)).toBe(true);
    expect(await problem(confirmEntry(deps(), token, null))).toEqual(["unknown", 404]);
    expect(await journeyOf(deps(), entry.email)).toMatchObject({ status: "none", position: null, joined_at: null });
  });

  it("resends within the daily cap (429's wait until the UTC day ends); a signed-in join is confirmed at once with a welcome", async () => {
    const email = uniqueEmail("resend");
    await joined(email);
    expect(await resendConfirmation(deps(), email)).toEqual({ sent: true });
    expect(await resendConfirmation(deps(), email)).toEqual({ sent: true });
    const over = await resendConfirmation(deps(), email);
    expect(over.sent).toBe(false);
    expect(over.retryAfterSeconds).toBeGreaterThan(0);
    expect(over.retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(await joinConfirmed(deps(), email)).toBe("joined");
    expect(await resendConfirmation(deps(), email)).toEqual({ sent: false });
    expect(await joinConfirmed(deps(), email)).toBe("already");
    const fresh = uniqueEmail("one-click");
    expect(await joinConfirmed(deps(), fresh)).toBe("joined");
    const mails = (await repo.devMail.list(500)).filter((mail) => mail.receivers.includes(fresh));
    expect(mails.map((mail) => mail.title)).toEqual([expect.stringMatching(/^You're #\d+ in line for Homework Helper$/)]);
    expect(await journeyOf(deps(), fresh)).toMatchObject({ status: "confirmed", referrals_pending: 0 });
  });

  it("the cron sends a joiner e-mail whose first try failed, after its backoff", async () => {
    const provider = fakeProvider("http-500");
    const email = uniqueEmail("cron");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)).status).toBe(201);
    expect(provider.joinerCalls).toHaveLength(1);
    provider.setMode("success");
    const soon = createDeps(testEnv(PROVIDER_ENV));
    expect((await runJoinerOutbox(soon)).queued).toBe(0);
    const later = createDeps(testEnv(PROVIDER_ENV), () => new Date(Date.now() + 3_600_000));
    // The cron re-queues it; the mail queue's consumer sends it.
    const report = await runJoinerOutbox(later);
    expect(report.queued).toBeGreaterThanOrEqual(1);
    expect(provider.joinerCalls.filter((sent) => sent.body.inputs.receivers[0] === email)).toHaveLength(2);
  });
});
