import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createDeps } from "../../worker/deps";
import { joinConfirmed, leaveWaitlist, resendConfirmation } from "../../worker/features/waitlist";
import { postJson, testRepository, uniqueEmail } from "../support/worker";

/**
 * Issue 22: only confirmations counted against an address's daily cap, so leaving and joining
 * again with one click sent a welcome every round. Welcomes now count too
 * (WAITLIST_CONFIRM_DAILY_LIMIT, shared with confirmations); past it the join is still confirmed.
 */

const repo = testRepository();
const DAY = 86_400_000;

/** A UTC day of this test's own, later than any used before in this file, the clock standing still an hour into it. */
let daysUsed = 0;
function freshDay(): number {
  daysUsed += 10;
  const start = Math.ceil(Date.now() / DAY) * DAY + (400 + daysUsed) * DAY;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(start + 3_600_000);
  return start;
}

const mailsTo = async (email: string) => (await repo.devMail.list(1000)).filter((mail) => mail.receivers.includes(email));

describe("the per-address daily cap counts welcomes (issue 22)", () => {
  it("twenty one-click join and leave rounds send WAITLIST_CONFIRM_DAILY_LIMIT (3) welcomes, and every join is still confirmed", async () => {
    freshDay();
    const deps = createDeps(env);
    const email = uniqueEmail("welcome-rounds");
    for (let round = 0; round < 20; round++) {
      expect(await joinConfirmed(deps, email)).toBe("joined");
      expect((await repo.findWaitlistEntry(email))!.confirmedAt).not.toBeNull();
      expect(await leaveWaitlist(deps, email)).toBe(true);
    }
    expect(await mailsTo(email)).toHaveLength(3);
  });

  it("confirmations and welcomes share the cap: after a join and two resends, a one-click join confirms without a welcome", async () => {
    freshDay();
    const deps = createDeps(env);
    const email = uniqueEmail("shared-cap");
    expect((await postJson("/api/waitlist", { email })).status).toBe(201);
    expect(await resendConfirmation(deps, email)).toEqual({ sent: true });
    expect(await resendConfirmation(deps, email)).toEqual({ sent: true });
    expect(await joinConfirmed(deps, email)).toBe("joined");
    const titles = (await mailsTo(email)).map((mail) => mail.title);
    expect(titles).toHaveLength(3);
    expect(titles.every((title) => title.startsWith("Confirm your place"))).toBe(true);
  });
});
