import { describe, expect, it } from "vitest";
import { signIn } from "../support/auth";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER, ADULT_JOIN_INIT } from "../support/age";

/**
 * Issue 16's referral and address rules as someone abusing them would try them (found by an
 * attack review): a friend counts once for a referrer however often they leave and join again and
 * whatever variant of their address they use; nobody can attach their code to a stranger's
 * pending entry; an address with a trailing dot or an empty domain label is not an address of its
 * own; the one-click join refuses disposable domains like the public join.
 */

const repo = testRepository();
/** Joins are confirmed at once here, so each referral counts (or not) at the join itself. */
const AT_ONCE = { WAITLIST_DOUBLE_OPT_IN: "false" };

async function confirmedReferrer(tag: string): Promise<{ email: string; code: string }> {
  const email = uniqueEmail(tag);
  expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, AT_ONCE)).status).toBe(201);
  return { email, code: (await repo.findWaitlistEntry(email))!.referralCode! };
}

const referralsOf = async (email: string) => (await repo.findWaitlistEntry(email))!.referralsConfirmed;

describe("referrals that must not count twice (issue 16: 'nor twice for one person')", () => {
  it("a friend who leaves and joins again through the same link counts once", async () => {
    const referrer = await confirmedReferrer("loop-referrer");
    const friend = `loop.friend.${Date.now().toString(36)}@example.com`;
    for (let round = 0; round < 3; round++) {
      expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: friend, ref: referrer.code }, AT_ONCE)).status).toBe(201);
      expect(await repo.waitlist.leave(friend)).toBe(true);
    }
    expect(await referralsOf(referrer.email)).toBe(1);
  });

  it("+tag variants of one friend's inbox count once", async () => {
    const referrer = await confirmedReferrer("tag-referrer");
    const stamp = Date.now().toString(36);
    for (const tag of ["", "+1", "+2", "+school"]) {
      expect(
        (await postJson("/api/waitlist", { ...ADULT_ANSWER, email: `tagfriend${stamp}${tag}@example.com`, ref: referrer.code }, AT_ONCE))
          .status,
      ).toBe(201);
    }
    expect(await referralsOf(referrer.email)).toBe(1);
    // A different person still counts.
    expect(
      (await postJson("/api/waitlist", { ...ADULT_ANSWER, email: uniqueEmail("other-friend"), ref: referrer.code }, AT_ONCE)).status,
    ).toBe(201);
    expect(await referralsOf(referrer.email)).toBe(2);
  });

  it("a re-join cannot attach a referral code to someone's pending entry", async () => {
    const attacker = await confirmedReferrer("attach-referrer");
    const victim = uniqueEmail("attach-victim");
    // The team's notification fails, so the entry stays open to re-joins (no 409).
    fakeProvider("http-500");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: victim }, PROVIDER_ENV)).status).toBe(201);
    const again = await call(
      "/api/waitlist",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "203.0.113.201" },
        body: JSON.stringify({ ...ADULT_ANSWER, email: victim, ref: attacker.code }),
      },
      PROVIDER_ENV,
    );
    expect(again.status).toBe(201);
    expect((await repo.findWaitlistEntry(victim))!.referredBy).toBeNull();
  });
});

describe("addresses that only look new", () => {
  it.each(["student@gmail.com.", "student@gmail..com", "student@.gmail.com", "d@mailinator.com."])(
    "%s is not a valid address, on the waitlist and at sign-in",
    async (email) => {
      const join = await postJson("/api/waitlist", { ...ADULT_ANSWER, email });
      expect(join.status).toBe(400);
      expect(((await join.json()) as { error: { message: string } }).error.message).toBe("Please enter a valid email address");
      const otp = await postJson("/auth/v1/otp", { email, create_user: true });
      expect(otp.status).toBe(400);
    },
  );

  it("the one-click join of /#/me refuses a disposable domain, as the public join does", async () => {
    const email = `kept${Date.now().toString(36)}@mailinator.com`;
    const { access_token } = await signIn(email);
    const response = await call("/api/me/waitlist", {
      method: "POST",
      headers: { ...ADULT_JOIN_INIT.headers, Authorization: `Bearer ${access_token}` },
      body: ADULT_JOIN_INIT.body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "validation_failed", message: "Please use a permanent email address, not a disposable one.", field: "email" },
    });
    expect(await repo.findWaitlistEntry(email)).toBeUndefined();
  });
});
