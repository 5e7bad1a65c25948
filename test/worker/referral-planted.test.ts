import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { confirmEntry } from "../../worker/features/waitlist/confirm";
import { signConfirmation } from "../../worker/features/waitlist/keys";
import { JWT_SECRET, signIn } from "../support/auth";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER, ADULT_JOIN_INIT } from "../support/age";

/**
 * Issue 22: referral credit planted in advance. A join with someone's `ref` for an address the
 * joiner does not own stays pending with that referrer; the real person's later join without
 * `ref` (then a confirmation), or their one-click join once signed in, must not credit it. A
 * referral counts only when the person confirms the join that carried it, through that join's
 * own link (worker/features/waitlist/confirm.ts, queries/journey.ts).
 */

const repo = testRepository();
const deps = () => createDeps(env);

/** A confirmed entry with its referral code (confirmed through its own e-mailed link). */
async function confirmedReferrer(tag: string) {
  const email = uniqueEmail(tag);
  await join(email);
  await confirmEntry(deps(), (await linksTo(email))[0]!, null);
  const entry = (await repo.findWaitlistEntry(email))!;
  expect(entry.confirmedAt).not.toBeNull();
  return entry;
}

/** A public join (201, or the spec's 409 for an address already notified: its confirmation is still re-sent). */
async function join(email: string, ref?: string) {
  const response = await postJson("/api/waitlist", ref ? { ...ADULT_ANSWER, email, ref } : { ...ADULT_ANSWER, email });
  expect([201, 409]).toContain(response.status);
}

/** The tokens of the confirmation links e-mailed to `email`, oldest first (the dev mailbox's copies). */
async function linksTo(email: string): Promise<string[]> {
  const mails = (await repo.devMail.list(500)).filter((mail) => mail.receivers.includes(email)).reverse();
  return mails.flatMap((mail) => {
    const token = /\/confirm\?token=([^"&\s<]+)/.exec(mail.bodyText ?? mail.bodyHtml)?.[1];
    return token ? [decodeURIComponent(token)] : [];
  });
}

/** The referral credits a referrer's code holds (hwh_referral_credits). */
async function creditsOf(code: string) {
  return (await env.DB.prepare("select * from hwh_referral_credits where referral_code = ?").bind(code).all()).results;
}

const referralsOf = async (id: number) => (await repo.waitlist.entryById(id))!.referralsConfirmed;

describe("a referral planted by someone else's join (issue 22)", () => {
  it("is dropped by the person's own later join without ref: confirming its link credits nobody", async () => {
    const attacker = await confirmedReferrer("plant-rejoin-attacker");
    const victim = uniqueEmail("plant-rejoin-victim");
    await join(victim, attacker.referralCode!);
    expect((await repo.findWaitlistEntry(victim))!.referredBy).toBe(attacker.referralCode);
    await join(victim);
    const links = await linksTo(victim);
    expect(links).toHaveLength(2);
    expect((await confirmEntry(deps(), links[1]!, null)).outcome).toBe("confirmed");
    expect(await referralsOf(attacker.id)).toBe(0);
    const after = (await repo.findWaitlistEntry(victim))!;
    expect(after).toMatchObject({ referredBy: null, referralNetwork: null });
    expect(await creditsOf(attacker.referralCode!)).toEqual([]);
  });

  it("is not credited when the person confirms the planted join's older link after joining again without ref", async () => {
    const attacker = await confirmedReferrer("plant-older-attacker");
    const victim = uniqueEmail("plant-older-victim");
    await join(victim, attacker.referralCode!);
    await join(victim);
    const [planted] = await linksTo(victim);
    expect((await confirmEntry(deps(), planted!, "192.0.2.44")).outcome).toBe("confirmed");
    expect(await referralsOf(attacker.id)).toBe(0);
    expect((await repo.findWaitlistEntry(victim))!.referredBy).toBeNull();
  });

  it("is dropped by a one-click join once the person signs in (POST /api/me/waitlist)", async () => {
    const attacker = await confirmedReferrer("plant-click-attacker");
    const victim = uniqueEmail("plant-click-victim");
    await join(victim, attacker.referralCode!);
    const { access_token } = await signIn(victim);
    const response = await call("/api/me/waitlist", {
      method: "POST",
      headers: { ...ADULT_JOIN_INIT.headers, Authorization: `Bearer ${access_token}` },
      body: ADULT_JOIN_INIT.body,
    });
    expect(response.status).toBe(200);
    expect((await repo.findWaitlistEntry(victim))!).toMatchObject({ referredBy: null });
    expect((await repo.findWaitlistEntry(victim))!.confirmedAt).not.toBeNull();
    expect(await referralsOf(attacker.id)).toBe(0);
  });

  it("cannot be attached by a later join with another ref: the person's first link credits nobody", async () => {
    const attacker = await confirmedReferrer("plant-attach-attacker");
    const victim = uniqueEmail("plant-attach-victim");
    await join(victim);
    await join(victim, attacker.referralCode!);
    const [own] = await linksTo(victim);
    expect((await confirmEntry(deps(), own!, null)).outcome).toBe("confirmed");
    expect(await referralsOf(attacker.id)).toBe(0);
  });

  it("a link made before referrals were bound to their join still confirms, and counts no referral", async () => {
    const referrer = await confirmedReferrer("old-link-referrer");
    const friend = uniqueEmail("old-link-friend");
    await join(friend, referrer.referralCode!);
    const entry = (await repo.findWaitlistEntry(friend))!;
    // The token's old shape, <entry>.<expiry>.<signature>, as e-mails already sent carry it.
    const old = await signConfirmation(JWT_SECRET, entry.id, new Date(Date.now() + 86_400_000));
    expect(old.split(".")).toHaveLength(3);
    expect((await confirmEntry(deps(), old, null)).outcome).toBe("confirmed");
    expect(await referralsOf(referrer.id)).toBe(0);
  });
});

describe("the honest referral (issue 22: still credited)", () => {
  it("a friend who joins with the link and confirms through that join's e-mail counts, once", async () => {
    const referrer = await confirmedReferrer("honest-referrer");
    const friend = uniqueEmail("honest-friend");
    await join(friend, referrer.referralCode!);
    const [link] = await linksTo(friend);
    expect((await confirmEntry(deps(), link!, "198.51.100.61")).outcome).toBe("confirmed");
    expect(await referralsOf(referrer.id)).toBe(1);
    expect((await repo.findWaitlistEntry(friend))!.referredBy).toBe(referrer.referralCode);
    expect(await creditsOf(referrer.referralCode!)).toHaveLength(1);
  });

  it("a friend who joins twice through the same link counts through either e-mail's link", async () => {
    const referrer = await confirmedReferrer("twice-referrer");
    const friend = uniqueEmail("twice-friend");
    await join(friend, referrer.referralCode!);
    await join(friend, referrer.referralCode!);
    const links = await linksTo(friend);
    expect(links).toHaveLength(2);
    expect((await confirmEntry(deps(), links[0]!, null)).outcome).toBe("confirmed");
    expect(await referralsOf(referrer.id)).toBe(1);
  });
});
