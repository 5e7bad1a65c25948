import { describe, expect, it } from "vitest";
import type { JoinJourney } from "../../worker/repository";
import { newReferralCode } from "../../worker/features/referrals/code";
import { referralCredits, type WaitlistEntry } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * Issue 22, "what delete everything leaves" (worker/features/operator/queries/erasure.ts in
 * erasePerson's one batch), run once on D1 inside workerd and once on libSQL in Node: after an
 * erasure no row of any table holds the person's address, mailbox key, entry id or referral code,
 * while the referrer keeps its places, the friends theirs, and a campaign its counts.
 * Addresses, keys and campaigns are this case's own, so rows other cases left on D1 never match.
 */
export function erasureRepositorySuite(driver: string, fresh: () => Promise<TestRepository>) {
  const t0 = new Date("2026-09-01T10:00:00.000Z");
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const claim = { now: t0, lockMs: 60_000 };
  /** The confirmation cap's window: the day of t0 (Unix seconds). */
  const DAY = { start: Math.floor(t0.getTime() / 86_400_000) * 86_400, end: Math.floor(t0.getTime() / 86_400_000) * 86_400 + 86_400 };
  const mail = () => ({ claim: crypto.randomUUID(), now: t0, lockMs: 60_000, origin: "http://site.test" });
  /** The pair key the worker makes of a mailbox key (HMAC under "referral-pair"), any value unlike it will do here. */
  const pairOf = (mailboxKey: string) => `pair:${[...mailboxKey].reverse().join("")}`;
  const confirmWrite = (mailboxKey: string, ms: number) => ({
    claim: crypto.randomUUID(),
    at: at(ms),
    referralCode: newReferralCode(),
    boost: 5,
    mailboxKey,
    pairKey: pairOf(mailboxKey),
    network: `net-${mailboxKey}`,
    referral: "join" as const,
  });

  /** Joins `email` (with `ref`) and confirms it through its own join, as the confirmation link does. */
  async function joinAndConfirm(repo: TestRepository, email: string, key: string, ref: string | null, ms: number): Promise<WaitlistEntry> {
    const journey: JoinJourney = {
      kind: "confirm",
      mailboxKey: key,
      ref,
      referralJoin: crypto.randomUUID(),
      mail: mail(),
      cap: { key: `cap:${key}`, window: DAY, max: 9 },
    };
    const joined = await repo.waitlist.join({ email, source: null }, claim, journey);
    await repo.waitlist.confirm(joined.current!, confirmWrite(key, ms));
    return (await repo.waitlist.entryByEmail(email))!;
  }

  describe(`erasure's links to others (${driver})`, () => {
    it("leaves no row holding the address, mailbox key, entry id or code; the referrer, friends and campaign keep what is theirs", async () => {
      const repo = await fresh();
      const tag = crypto.randomUUID().slice(0, 8);
      const key = (who: string) => `${driver}-${tag}-${who}`;
      const referrer = await joinAndConfirm(repo, `r-${tag}@example.com`, key("r"), null, 1);
      const person = await joinAndConfirm(repo, `p-${tag}@example.com`, key("p"), referrer.referralCode, 2);
      const friend = await joinAndConfirm(repo, `f-${tag}@example.com`, key("f"), person.referralCode, 3);
      const waiting = await repo.waitlist.join({ email: `w-${tag}@example.com`, source: null }, claim, {
        kind: "confirm",
        mailboxKey: key("w"),
        ref: person.referralCode,
        referralJoin: crypto.randomUUID(),
        mail: mail(),
        cap: { key: `cap:${key("w")}`, window: DAY, max: 9 },
      });
      expect(waiting.current!.referredBy).toBe(person.referralCode);
      expect((await repo.waitlist.entryByEmail(referrer.email))!.referralsConfirmed).toBe(1);
      expect((await repo.waitlist.entryByEmail(person.email))!.referralsConfirmed).toBe(1);

      // A wave drew everyone confirmed; the person's e-mail and the friend's were sent.
      const draft = await repo.campaigns.create(
        { subject: `Wave ${tag}`, body: "Come in.", audience: { kind: "wave", size: 10 } },
        "ops@example.com",
        t0,
      );
      const campaign = (await repo.campaignDelivery.transition(draft.id, ["draft"], "sending", t0, { startedAt: t0.toISOString() }))!;
      await repo.campaignDelivery.expandChunk(campaign, 10, at(10));
      const rows = await repo.campaignDelivery.rowsOf(campaign.id);
      for (const row of rows.filter((recipient) => recipient.entryId !== referrer.id)) {
        const claimed = await repo.campaignDelivery.claim(row.id, campaign.id, `c-${row.id}`, at(20), 60_000);
        await repo.campaignDelivery.markSent(claimed!.recipient, at(30));
      }
      const countsBefore = await repo.campaignDelivery.progressCounts(campaign.id, at(40));
      expect(countsBefore.counts).toMatchObject({ sent: 2, queued: 1 });
      // Where they stand: the order key (the place itself moves up by one, as the person ahead is gone).
      const standing = async () =>
        Promise.all([referrer, friend].map(async (entry) => (await repo.waitlist.entryByEmail(entry.email))!.rankKey));
      const standingBefore = await standing();

      // A second campaign still queued for the person when they erase.
      const news = await repo.campaigns.create(
        { subject: `News ${tag}`, body: "Hello.", audience: { kind: "all" } },
        "ops@example.com",
        t0,
      );
      const newsSending = (await repo.campaignDelivery.transition(news.id, ["draft"], "sending", t0, { startedAt: t0.toISOString() }))!;
      await repo.campaignDelivery.expandChunk(newsSending, 10, at(10));
      const queuedForPerson = (await repo.campaignDelivery.rowsOf(news.id)).find((row) => row.entryId === person.id)!;

      await repo.operator.erasePerson(
        person.email,
        { operator: "op", subjectHash: "h".repeat(64), now: at(50) },
        key("p"),
        pairOf(key("p")),
      );

      // No trace of the person anywhere: every text of every row, and every column naming an entry.
      const traces = [person.email, key("p"), person.referralCode!];
      // Kept on purpose: the counters capping the e-mails one inbox gets (by mailbox key) until their
      // window ends, at most a day, so deleting everything cannot reset them; the cron deletes them then.
      const { hwh_rate_limits: counters, ...tables } = await repo.everyRow();
      for (const counter of counters!.filter((row) => String(row.key).includes(key("p")))) {
        expect(Number(counter.expires_at)).toBeLessThanOrEqual(at(50).getTime() / 1000 + 86_400);
      }
      for (const [table, tableRows] of Object.entries(tables)) {
        for (const row of tableRows) {
          for (const [column, value] of Object.entries(row)) {
            if (typeof value === "string") for (const trace of traces) expect(value, `${table}.${column}`).not.toContain(trace);
            if (column === "entry_id" || (table === "hwh_waitlist" && column === "id"))
              expect(value, `${table}.${column}`).not.toBe(person.id);
          }
        }
      }
      // The referrer keeps the places its credit gave; the friends keep their standing, without the link.
      const after = await Promise.all([referrer, friend, waiting.current!].map((entry) => repo.waitlist.entryByEmail(entry.email)));
      expect(after.map((entry) => entry!.referralsConfirmed)).toEqual([1, 0, 0]);
      expect(after.map((entry) => entry!.referredBy)).toEqual([null, null, null]);
      expect(await standing()).toEqual(standingBefore);
      // The campaign's counts hold: the person's row stays, naming nobody (no place, no send time).
      expect((await repo.campaignDelivery.progressCounts(campaign.id, at(40))).counts).toEqual(countsBefore.counts);
      const anonymous = (await repo.campaignDelivery.rowsOf(campaign.id)).filter((row) => row.entryId < 0);
      expect(anonymous).toEqual([expect.objectContaining({ status: "sent", place: null, sentAt: null, lastError: null })]);
      expect((await repo.campaignDelivery.rowsOf(campaign.id)).find((row) => row.entryId === friend.id)).toMatchObject({
        status: "sent",
        sentAt: at(30).toISOString(),
      });
      // Its queued row is claimed as a row whose entry is gone: the send skips it as erased.
      const claimed = await repo.campaignDelivery.claim(queuedForPerson.id, news.id, "late", at(60), 60_000);
      expect(claimed).toMatchObject({ recipient: { id: queuedForPerson.id }, entry: null });
      expect(claimed!.recipient.entryId).toBe(-queuedForPerson.id);
    });

    it("keeps a tombstone of the pair where the person was the friend: joining again through the same link credits nobody", async () => {
      const repo = await fresh();
      const tag = crypto.randomUUID().slice(0, 8);
      const key = (who: string) => `${driver}-${tag}-${who}`;
      const erase = (email: string, who: string, ms: number) =>
        repo.operator.erasePerson(email, { operator: "self", subjectHash: "h".repeat(64), now: at(ms) }, key(who), pairOf(key(who)));
      const referrer = await joinAndConfirm(repo, `r-${tag}@example.com`, key("r"), null, 1);
      const person = await joinAndConfirm(repo, `p-${tag}@example.com`, key("p"), referrer.referralCode, 2);
      const credited = (await repo.waitlist.entryByEmail(referrer.email))!;
      expect(credited.referralsConfirmed).toBe(1);

      await erase(person.email, "p", 10);
      // The pair stays, without the mailbox key: the referrer's code and the pair key, with the credit's time and boost.
      const credits = await repo.rowsOf(referralCredits);
      expect(credits).toEqual([
        { referralCode: referrer.referralCode, mailboxKey: pairOf(key("p")), createdAt: at(2).toISOString(), boost: 5, voidedAt: null },
      ]);

      const again = await joinAndConfirm(repo, person.email, key("p"), referrer.referralCode, 20);
      expect(again.confirmedAt).not.toBeNull();
      expect(await repo.waitlist.entryByEmail(referrer.email)).toMatchObject({ referralsConfirmed: 1, rankKey: credited.rankKey });
      expect(await repo.rowsOf(referralCredits)).toEqual(credits);
      // Erasing again keeps the one tombstone; another mailbox still counts for the referrer.
      await erase(person.email, "p", 30);
      expect(await repo.rowsOf(referralCredits)).toEqual(credits);
      await joinAndConfirm(repo, `o-${tag}@example.com`, key("o"), referrer.referralCode, 40);
      expect((await repo.waitlist.entryByEmail(referrer.email))!.referralsConfirmed).toBe(2);
    });

    it("a voided credit stays voided through the friend's erasure: counted in the referrer's voided, never credited again", async () => {
      const repo = await fresh();
      const tag = crypto.randomUUID().slice(0, 8);
      const key = (who: string) => `${driver}-${tag}-${who}`;
      const referrer = await joinAndConfirm(repo, `r-${tag}@example.com`, key("r"), null, 1);
      const person = await joinAndConfirm(repo, `p-${tag}@example.com`, key("p"), referrer.referralCode, 2);
      expect(await repo.operator.voidReferral(person.id, { fallbackBoost: 5, now: at(5) })).toMatchObject({ voided: true, boost: 5 });
      const referrerRow = async () => (await repo.operator.listWaitlist({ q: `r-${tag}`, limit: 5, after: null }))[0]!;
      const voided = await referrerRow();
      expect(voided).toMatchObject({ referralsConfirmed: 0, referralsVoided: 1 });

      for (const ms of [10, 30]) {
        await repo.operator.erasePerson(
          person.email,
          { operator: "self", subjectHash: "h".repeat(64), now: at(ms) },
          key("p"),
          pairOf(key("p")),
        );
        expect(await repo.rowsOf(referralCredits)).toEqual([
          expect.objectContaining({ mailboxKey: pairOf(key("p")), voidedAt: at(5).toISOString() }),
        ]);
        expect(await referrerRow()).toMatchObject({ referralsConfirmed: 0, referralsVoided: 1, rankKey: voided.rankKey });
        await joinAndConfirm(repo, person.email, key("p"), referrer.referralCode, ms + 10);
        expect(await referrerRow()).toMatchObject({ referralsConfirmed: 0, referralsVoided: 1, rankKey: voided.rankKey });
      }
    });

    it("an entry still under a former mailbox key: its pairs and today's key's pairs make one tombstone, voided if either was", async () => {
      const repo = await fresh();
      const tag = crypto.randomUUID().slice(0, 8);
      const key = (who: string) => `${driver}-${tag}-${who}`;
      const referrer = await joinAndConfirm(repo, `r-${tag}@example.com`, key("r"), null, 1);
      // Stored before addresses were canonical (the backfill has not moved it yet): credited under the former key,
      // and once more under today's key by another spelling of the inbox, which the former pair did not stop.
      const person = await joinAndConfirm(repo, `p-${tag}@example.com`, key("former"), referrer.referralCode, 2);
      const tagged = await joinAndConfirm(repo, `p+x-${tag}@example.com`, key("p"), referrer.referralCode, 3);
      expect((await repo.waitlist.entryByEmail(referrer.email))!.referralsConfirmed).toBe(2);
      expect(await repo.operator.voidReferral(person.id, { fallbackBoost: 5, now: at(5) })).toMatchObject({ voided: true });

      await repo.operator.erasePerson(
        person.email,
        { operator: "self", subjectHash: "h".repeat(64), now: at(10) },
        key("p"),
        pairOf(key("p")),
      );
      expect(await repo.rowsOf(referralCredits)).toEqual([
        expect.objectContaining({ referralCode: referrer.referralCode, mailboxKey: pairOf(key("p")), voidedAt: at(5).toISOString() }),
      ]);
      expect(await repo.waitlist.entryByEmail(tagged.email)).toMatchObject({ confirmedAt: at(3).toISOString() });
      // Today's key, as a join computes it now, finds the tombstone.
      await joinAndConfirm(repo, person.email, key("p"), referrer.referralCode, 20);
      expect((await repo.waitlist.entryByEmail(referrer.email))!.referralsConfirmed).toBe(1);
    });
  });
}
