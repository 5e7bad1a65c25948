import type { WaitlistEntry } from "../../worker/platform/db/schema";
import type { TestRepository } from "./records";

/**
 * A join confirmed at once (the welcome path, as with WAITLIST_DOUBLE_OPT_IN off), through the
 * journey's own statements (repo.waitlist.join), for the repository suites that need a line of
 * confirmed entries: the one place that spells the journey's fields, so a change to them is made
 * once. The daily cap on joiner e-mails is the mailbox's own and never reached here.
 */
export type ConfirmedJoiner = {
  email: string;
  mailboxKey: string;
  referralCode: string;
  boost: number;
  ref?: string;
  network?: string;
};

const LOCK_MS = 60_000;

export async function confirmedJoin(repo: TestRepository, now: Date, joiner: ConfirmedJoiner): Promise<WaitlistEntry> {
  const { mailboxKey } = joiner;
  const result = await repo.waitlist.join(
    { email: joiner.email, source: null },
    { now, lockMs: LOCK_MS },
    {
      kind: "welcome",
      mailboxKey,
      ref: joiner.ref ?? null,
      referralJoin: crypto.randomUUID(),
      mail: { claim: crypto.randomUUID(), now, lockMs: LOCK_MS, origin: "https://x.test" },
      cap: { key: `welcome-day:${mailboxKey}`, window: { start: 0, end: 4_102_444_800 }, max: 1_000 },
      confirm: {
        claim: crypto.randomUUID(),
        at: now,
        referralCode: joiner.referralCode,
        boost: joiner.boost,
        mailboxKey,
        pairKey: `pair:${mailboxKey}`,
        network: joiner.network ?? null,
        referral: "join",
      },
    },
  );
  if (result.outcome !== "joined") throw new Error(`${joiner.email} was a duplicate`);
  return result.entry;
}
