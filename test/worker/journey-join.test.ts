import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { confirmEntry } from "../../worker/features/waitlist/confirm";
import { env } from "cloudflare:workers";
import { fakeProvider, PROVIDER_ENV } from "../support/fake-provider";
import { call, postJson, testRepository, uniqueEmail } from "../support/worker";
import { ADULT_ANSWER, ADULT_FORM } from "../support/age";

const repo = testRepository();

/** The joiner e-mails the dev mailbox holds for one address, oldest first. */
async function mailsTo(email: string) {
  return (await repo.devMail.list(500)).filter((mail) => mail.receivers.includes(email)).reverse();
}

const tokenOf = (mail: { bodyText: string | null }) => /confirm\?token=([^\s&"]+)/.exec(mail.bodyText ?? "")![1]!;

describe("the join's confirmation e-mail (issue 16)", () => {
  it("e-mails the joiner alone a confirmation with one button link and a plain-text alternative; the company's notification is unchanged", async () => {
    const email = uniqueEmail("confirm");
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ email, joined_at: expect.any(String) });
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ receivers: [email], title: "Confirm your place on the Homework Helper waitlist" });
    expect(mail!.bodyHtml.match(/<a /g)).toHaveLength(1);
    expect(mail!.bodyHtml).toContain('href="http://localhost/confirm?token=');
    expect(mail!.bodyText).toContain("Confirm my place: http://localhost/confirm?token=");
    expect(mail!.bodyText).toContain("You get this e-mail because");
    const team = (await repo.devMail.list(500)).filter((m) => m.receivers.includes("team@example.com") && m.bodyHtml.includes(email));
    expect(team.map((m) => m.title)).toEqual(["New Waitlist Submission"]);
    const entry = await repo.findWaitlistEntry(email);
    expect(entry).toMatchObject({ confirmedAt: null, referralCode: null });
    expect(entry!.mailboxKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it("through the provider: the joiner's e-mail goes to the joiner only, with inputs.body_text", async () => {
    const provider = fakeProvider("success");
    const email = uniqueEmail("provider");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, PROVIDER_ENV)).status).toBe(201);
    expect(provider.joinerCalls.map((sent) => sent.body.inputs.receivers)).toEqual([[email]]);
    expect(provider.joinerCalls[0]!.body.inputs.body_text).toMatch(
      /^Homework Helper\n[\s\S]*Confirm my place: http:\/\/localhost\/confirm\?token=/,
    );
    expect(provider.calls.map((sent) => sent.body.inputs.receivers)).toEqual([["team@example.com"]]);
    expect((await repo.findWaitlistEntry(email))!.id).toBeGreaterThan(0);
  });

  it("re-sends on a re-join of an unconfirmed address, the 409 duplicate too, at most 3 a day whatever the client", async () => {
    const email = uniqueEmail("cap");
    const answers: number[] = [];
    for (let n = 0; n < 5; n += 1)
      answers.push((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: n % 2 ? email.toUpperCase() : email })).status);
    // The first join's notification was delivered at once, so every re-join is the spec's 409.
    expect(answers).toEqual([201, 409, 409, 409, 409]);
    expect((await mailsTo(email)).map((mail) => mail.title.slice(0, 7))).toEqual(["Confirm", "Confirm", "Confirm"]);
  });

  it("counts the cap per mailbox: Gmail dots, +tags and googlemail share it", async () => {
    const base = `capme${Date.now().toString(36)}`;
    const variants = [
      `${base.slice(0, 2)}.${base.slice(2)}@gmail.com`,
      `${base}+a@googlemail.com`,
      `${base.toUpperCase()}+b@gmail.com`,
      `${base}@gmail.com`,
    ];
    for (const email of variants) expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email })).status).toBe(201);
    const sent = await Promise.all(variants.map(async (email) => (await mailsTo(email.toLowerCase())).length));
    expect(sent).toEqual([1, 1, 1, 0]);
  });

  it("ignores an unknown or mis-shaped ref and joins; keeps a known one, upper-cased", async () => {
    const unknown = uniqueEmail("ref-unknown");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: unknown, ref: "ZZZZ2222" })).status).toBe(201);
    expect((await repo.findWaitlistEntry(unknown))!.referredBy).toBeNull();
    for (const ref of ["no!", 12345678, { code: "x" }, "O0O0O0O0", ""]) {
      const email = uniqueEmail("ref-shape");
      expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email, ref })).status, JSON.stringify(ref)).toBe(201);
      expect((await repo.findWaitlistEntry(email))!.referredBy).toBeNull();
    }
    const referrer = uniqueEmail("referrer");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: referrer });
    const deps = createDeps(env);
    await confirmEntry(deps, tokenOf((await mailsTo(referrer))[0]!), null);
    const code = (await repo.findWaitlistEntry(referrer))!.referralCode!;
    const friend = uniqueEmail("friend");
    expect((await postJson("/api/waitlist", { ...ADULT_ANSWER, email: friend, ref: ` ${code.toLowerCase()} ` })).status).toBe(201);
    expect((await repo.findWaitlistEntry(friend))!.referredBy).toBe(code);
  });

  it("refuses an address at a disposable-mail domain (and its subdomains) at the field; nothing stored or sent", async () => {
    for (const email of [`x${Date.now()}@mailinator.com`, `y${Date.now()}@sub.mailinator.com`]) {
      const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          code: "validation_failed",
          message: "Please use a permanent email address, not a disposable one.",
          field: "email",
          fields: { email: "Please use a permanent email address, not a disposable one." },
        },
      });
      expect(await repo.findWaitlistEntry(email)).toBeUndefined();
    }
  });

  it("a form post without JavaScript carries ref and gets its confirmation too", async () => {
    const email = uniqueEmail("form");
    const res = await call("/api/waitlist", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: new URLSearchParams({ ...ADULT_FORM, email, ref: "bad" }).toString(),
    });
    expect(res.status).toBe(201);
    expect((await mailsTo(email)).length).toBe(1);
  });

  it("with WAITLIST_DOUBLE_OPT_IN=false confirms at once and sends a welcome with the place and the referral link", async () => {
    const email = uniqueEmail("welcome");
    const res = await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { WAITLIST_DOUBLE_OPT_IN: "false" });
    expect(res.status).toBe(201);
    const entry = (await repo.findWaitlistEntry(email))!;
    expect(entry.confirmedAt).not.toBeNull();
    const place = await repo.waitlist.placeOf(entry);
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(mail!.title).toBe(`You're #${place} in line for Homework Helper`);
    expect(mail!.bodyText).toContain(`Your link: http://localhost/?ref=${entry.referralCode}`);
    expect(mail!.bodyText).toContain("Each friend who joins with your link and confirms moves you up 5 places.");
    // Joining again sends nothing more.
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email }, { WAITLIST_DOUBLE_OPT_IN: "false" });
    expect((await mailsTo(email)).length).toBe(1);
  });

  it("a referral confirmed at once (WAITLIST_DOUBLE_OPT_IN=false) keeps its client network for the operator's flag, as a confirmation does", async () => {
    const off = { WAITLIST_DOUBLE_OPT_IN: "false" };
    const referrer = uniqueEmail("net-referrer");
    await postJson("/api/waitlist", { ...ADULT_ANSWER, email: referrer }, off);
    const code = (await repo.findWaitlistEntry(referrer))!.referralCode!;
    const friend = uniqueEmail("net-friend");
    const res = await call(
      "/api/waitlist",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.51.100.23" },
        body: JSON.stringify({ ...ADULT_ANSWER, email: friend, ref: code }),
      },
      off,
    );
    expect(res.status).toBe(201);
    const entry = (await repo.findWaitlistEntry(friend))!;
    expect(entry).toMatchObject({ referredBy: code });
    expect(entry.referralNetwork).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.referralNetwork).not.toContain("198.51.100");
    expect((await repo.findWaitlistEntry(referrer))!.referralsConfirmed).toBe(1);
  });
});
