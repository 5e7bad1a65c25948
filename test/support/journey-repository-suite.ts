import { describe, expect, it } from "vitest";
import type { ConfirmWrite, MailCap, QueueMail, ReferralProof } from "../../worker/features/waitlist/queries/journey";
import type { JoinJourney } from "../../worker/repository";
import type { WaitlistEntry } from "../../worker/platform/db/schema";
import { newReferralCode } from "../../worker/features/referrals/code";
import type { TestRepository } from "./records";

/**
 * The journey's queries (worker/features/waitlist/queries/journey.ts and the join's batch), run once on D1
 * inside workerd and once on libSQL in Node. `fresh()` gives a repository on an empty database.
 */
export function journeyRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-03-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const claim = (ms = 0) => ({ now: at(ms), lockMs: 60_000 });
  const mail = (ms = 0): QueueMail => ({ claim: crypto.randomUUID(), now: at(ms), lockMs: 60_000, origin: "http://site.test" });
  const cap = (max = 3, day = 0): MailCap => ({
    key: "waitlist-confirm-day:k",
    window: { start: 1_772_323_200 + day * 86_400, end: 1_772_409_600 + day * 86_400 },
    max,
  });
  // "join": the confirmation counts the referral the entry holds (the join's own, as double opt-in off does).
  const write = (mailboxKey: string, boost = 5, ms = 0, network = "net", referral: ReferralProof = "join"): ConfirmWrite => ({
    claim: crypto.randomUUID(),
    at: at(ms),
    referralCode: newReferralCode(),
    boost,
    mailboxKey,
    pairKey: `pair:${mailboxKey}`,
    network,
    referral,
  });
  const pending = (key: string, ref: string | null = null, max = 3): JoinJourney => ({
    kind: "confirm",
    mailboxKey: key,
    ref,
    referralJoin: crypto.randomUUID(),
    mail: mail(),
    cap: { ...cap(max), key: `waitlist-confirm-day:${key}` },
  });
  const atOnce = (key: string, ref: string | null = null, boost = 5): JoinJourney => ({
    kind: "welcome",
    mailboxKey: key,
    ref,
    referralJoin: crypto.randomUUID(),
    mail: mail(),
    // A cap of its own: these welcomes are not what a test counts.
    cap: { ...cap(), key: `welcome:${crypto.randomUUID()}` },
    confirm: write(key, boost),
  });

  async function confirmed(repo: TestRepository, email: string, key = email, ref: string | null = null, boost = 5): Promise<WaitlistEntry> {
    const result = await repo.waitlist.join({ email, source: null }, claim(), atOnce(key, ref, boost));
    return result.current!;
  }
  const place = async (repo: TestRepository, email: string) => repo.waitlist.placeOf((await repo.waitlist.entryByEmail(email))!);

  describe(`journey repository on ${driver}`, () => {
    it("queues a claimed confirmation e-mail in the join's batch, and re-queues on a re-join within the daily cap only", async () => {
      const repo = await fresh();
      const first = await repo.waitlist.join({ email: "p@example.com", source: null }, claim(), pending("kp"));
      expect(first.outcome).toBe("joined");
      expect(first.current).toMatchObject({ confirmedAt: null, mailboxKey: "kp", referralCode: null });
      expect(first.joinerMail).toMatchObject({
        entryId: first.current!.id,
        kind: "confirm",
        attempts: 1,
        sentAt: null,
        origin: "http://site.test",
      });
      // Two more re-joins are within 3 a day; the fourth queues nothing, a duplicate (409) too.
      for (const n of [2, 3])
        expect(
          (await repo.waitlist.join({ email: "p@example.com", source: null }, claim(n), pending("kp"))).joinerMail,
          `join ${n}`,
        ).not.toBeNull();
      await repo.notifications.markSent([{ kind: "waitlist", record: first.current! }], at(10));
      const fourth = await repo.waitlist.join({ email: "p@example.com", source: null }, claim(20), pending("kp"));
      expect(fourth).toMatchObject({ outcome: "duplicate", joinerMail: null });
    });

    it("counts the cap per mailbox key whatever the address, and not for a confirmed entry", async () => {
      const repo = await fresh();
      const one = await repo.waitlist.join({ email: "a.b@gmail.com", source: null }, claim(), pending("same", null, 1));
      const two = await repo.waitlist.join({ email: "ab+x@gmail.com", source: null }, claim(), pending("same", null, 1));
      expect(one.joinerMail).not.toBeNull();
      expect(two.joinerMail).toBeNull();
      await confirmed(repo, "c@example.com", "kc");
      expect((await repo.waitlist.join({ email: "c@example.com", source: null }, claim(), pending("kc"))).joinerMail).toBeNull();
    });

    it("confirms at once with seq, code and rank key, queues one welcome, and confirms once", async () => {
      const repo = await fresh();
      const result = await repo.waitlist.join({ email: "w@example.com", source: null }, claim(), atOnce("kw"));
      expect(result.current).toMatchObject({ confirmSeq: 1, rankKey: 2, confirmedAt: t0.toISOString(), referralsConfirmed: 0 });
      expect(result.current!.referralCode).toMatch(/^[23456789A-Z]{8}$/);
      expect(result.joinerMail).toMatchObject({ kind: "welcome" });
      const again = await repo.waitlist.join({ email: "w@example.com", source: null }, claim(5), atOnce("kw"));
      expect(again.current).toMatchObject({ confirmSeq: 1, referralCode: result.current!.referralCode });
      expect(again.joinerMail).toBeNull();
      expect(await repo.waitlist.confirm(result.current!, write("kw"))).toMatchObject({ confirmClaim: result.current!.confirmClaim });
    });

    it("keeps only a known referral code, counts a referral once at confirmation, never for the same mailbox", async () => {
      const repo = await fresh();
      const referrer = await confirmed(repo, "r@example.com", "kr");
      const code = referrer.referralCode!;
      const unknown = await repo.waitlist.join({ email: "u@example.com", source: null }, claim(), pending("ku", "ZZZZZZZZ"));
      expect(unknown.current!.referredBy).toBeNull();
      const friend = await repo.waitlist.join({ email: "f@example.com", source: null }, claim(), pending("kf", code));
      const self = await repo.waitlist.join({ email: "r+2@example.com", source: null }, claim(), pending("kr", code));
      expect([friend.current!.referredBy, self.current!.referredBy]).toEqual([code, code]);
      expect(await repo.referrals.pending(referrer)).toBe(1);

      const w = write("kf");
      const won = await repo.waitlist.confirm(friend.current!, w);
      expect(won).toMatchObject({ confirmClaim: w.claim, referralNetwork: "net" });
      await repo.waitlist.confirm(friend.current!, write("kf"));
      await repo.waitlist.confirm(self.current!, write("kr"));
      expect(await repo.waitlist.entryByEmail("r@example.com")).toMatchObject({ referralsConfirmed: 1, rankKey: 2 - 11 });
      expect(await repo.referrals.pending(referrer)).toBe(0);
      // Both confirmed from "net", but the referrer's own mailbox never counts: one, as the stats count it.
      expect(await repo.referrals.networkFlagged(code, "net", 1)).toBe(1);
    });

    it("binds a referral to the join that carried it: its e-mail's link counts it; another join, link or a one-click join drops it (issue 22)", async () => {
      const repo = await fresh();
      const referrer = await confirmed(repo, "r@example.com", "kr");
      const code = referrer.referralCode!;
      const join = (email: string, key: string, ref: string | null, ms = 0) =>
        repo.waitlist.join({ email, source: null }, claim(ms), pending(key, ref));
      // The join's confirmation e-mail copies its join's value; a re-join with the same code keeps it.
      const first = await join("a@example.com", "ka", code);
      const j = first.current!.referralJoin!;
      expect(j).toBeTruthy();
      expect(first.joinerMail!.referralJoin).toBe(j);
      const same = await join("a@example.com", "ka", code, 1);
      expect(same.current).toMatchObject({ referredBy: code, referralJoin: j });
      expect(same.joinerMail!.referralJoin).toBe(j);
      // Sent again from My place: the same entry, a link that carries no referral.
      const resent = await repo.waitlist.queueConfirmation("a@example.com", { ...cap(), key: "waitlist-confirm-day:ka" }, mail(2));
      expect(resent!.referralJoin).toBeNull();
      // Another join's link (or one that carries none) drops it; this join's own link counts it.
      expect(await repo.waitlist.confirm(first.current!, write("ka", 5, 0, "net", { link: "another-join" }))).toMatchObject({
        referredBy: null,
        referralJoin: null,
        referralNetwork: null,
      });
      const b = await join("b@example.com", "kb", code);
      expect(await repo.waitlist.confirm(b.current!, write("kb", 5, 0, "net", { link: b.current!.referralJoin }))).toMatchObject({
        referredBy: code,
        referralJoin: null,
        referralNetwork: "net",
      });
      expect(await repo.waitlist.entryByEmail("r@example.com")).toMatchObject({ referralsConfirmed: 1 });
      // A later join without the code (or with another) drops it, and no value is left for a link to carry.
      await join("c@example.com", "kc", code);
      expect((await join("c@example.com", "kc", null, 1)).current).toMatchObject({ referredBy: null, referralJoin: null });
      await join("d@example.com", "kd", code);
      expect((await join("d@example.com", "kd", "ZZZZZZZZ", 1)).current).toMatchObject({ referredBy: null, referralJoin: null });
      // A one-click join confirms with no proof: nothing counts.
      const e = await join("e@example.com", "ke", code);
      await repo.waitlist.confirm(e.current!, write("ke", 5, 0, "net", "none"));
      expect(await repo.waitlist.entryByEmail("e@example.com")).toMatchObject({ referredBy: null });
      expect(await repo.waitlist.entryByEmail("r@example.com")).toMatchObject({ referralsConfirmed: 1 });
    });

    it("flags a referrer at exactly REFERRAL_NETWORK_FLAG confirmed referrals from one network, not one fewer, not across two networks: the log's rule and the stats' alike", async () => {
      const repo = await fresh();
      const referrer = await confirmed(repo, "r@example.com", "kr");
      const code = referrer.referralCode!;
      const confirmFrom = async (email: string, key: string, network: string) => {
        const joined = await repo.waitlist.join({ email, source: null }, claim(), pending(key, code));
        await repo.waitlist.confirm(joined.current!, write(key, 5, 0, network));
      };
      await confirmFrom("f1@example.com", "kf1", "school");
      expect(await repo.referrals.networkFlagged(code, "school", 2)).toBeNull();
      await confirmFrom("f2@example.com", "kf2", "school");
      await confirmFrom("f3@example.com", "kf3", "home");
      // The referrer's own mailbox from "home" never counts (nor did it move the referrer up).
      await confirmFrom("r+me@example.com", "kr", "home");
      expect(await repo.referrals.networkFlagged(code, "school", 2)).toBe(2);
      expect(await repo.referrals.networkFlagged(code, "school", 3)).toBeNull();
      expect(await repo.referrals.networkFlagged(code, "home", 2)).toBeNull();
      expect(await repo.referrals.networkFlagged("ZZZZZZZZ", "school", 1)).toBeNull();
      // The console's flagged list is the same rule: three referrals over two networks flag nothing at 3.
      const flagged = async (networkFlag: number) => (await repo.operator.stats(at(1000), { networkFlag })).referrals.flagged;
      expect(await flagged(2)).toEqual([{ email: "r@example.com", code, referrals: 3, fromOneNetwork: 2 }]);
      expect(await flagged(3)).toEqual([]);
    });

    it("places by rank key then confirmation order, never above 1st", async () => {
      const repo = await fresh();
      for (const n of [1, 2, 3, 4, 5, 6, 7]) await confirmed(repo, `e${n}@example.com`, `k${n}`);
      expect(await place(repo, "e7@example.com")).toBe(7);
      // e7 (7th) refers one friend and moves up exactly 5 places: key 2 x 7 - 11 = 3, just before
      // e2 (key 4) whose standing it reached, after e1 (key 2): e7 is 2nd.
      const code7 = (await repo.waitlist.entryByEmail("e7@example.com"))!.referralCode;
      await confirmed(repo, "f1@example.com", "kf1", code7);
      expect(await repo.waitlist.entryByEmail("e7@example.com")).toMatchObject({ rankKey: 3, referralsConfirmed: 1 });
      expect(await Promise.all(["e1", "e7", "e2", "e3", "f1"].map((name) => place(repo, `${name}@example.com`)))).toEqual([1, 2, 3, 4, 8]);
      // A second referral: key 3 - 10 = -7, ahead of everyone (never above 1st).
      await confirmed(repo, "f2@example.com", "kf2", code7);
      expect(await place(repo, "e7@example.com")).toBe(1);
      expect(await place(repo, "e1@example.com")).toBe(2);
      expect(await repo.waitlist.placeOf({ rankKey: null, confirmSeq: null })).toBeNull();
    });

    it("claims due joiner mails with a lease, backs off failures and leaves with the entry", async () => {
      const repo = await fresh();
      const joined = await repo.waitlist.join({ email: "m@example.com", source: null }, claim(), pending("km"));
      const options = { claim: "cron", lockMs: 60_000, limit: 10 };
      expect(await repo.waitlist.claimDueMail({ ...options, now: at(1000) })).toEqual([]);
      const [claimed] = await repo.waitlist.claimDueMail({ ...options, now: at(61_000) });
      expect(claimed).toMatchObject({ id: joined.joinerMail!.id, attempts: 2, claim: "cron" });
      await repo.waitlist.markMailFailed(joined.joinerMail!, "stale holder", at(70_000));
      await repo.waitlist.markMailFailed(claimed!, "HTTP 500", at(300_000));
      expect(await repo.waitlist.claimDueMail({ ...options, now: at(200_000) })).toEqual([]);
      const [retry] = await repo.waitlist.claimDueMail({ ...options, now: at(300_000) });
      expect(retry).toMatchObject({ attempts: 3, lastError: "HTTP 500" });
      await repo.waitlist.markMailSent(retry!, at(301_000), {
        receivers: ["m@example.com"],
        title: "t",
        bodyHtml: "<p>h</p>",
        bodyText: "h",
      });
      expect(await repo.waitlist.claimDueMail({ ...options, now: at(10_000_000) })).toEqual([]);
      expect((await repo.devMail.list())[0]).toMatchObject({ bodyText: "h" });
      expect(await repo.waitlist.leave("m@example.com")).toBe(true);
      expect(await repo.waitlist.entryByEmail("m@example.com")).toBeNull();
      expect(await repo.waitlist.leave("m@example.com")).toBe(false);
    });
  });
}
