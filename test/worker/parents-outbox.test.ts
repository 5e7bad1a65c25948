// Issue 23 §2: the parent's e-mail's delivery (worker/features/parents/mail.ts): the request row is
// its own e-mail's outbox, sent after the child's answer; a failed send is retried by the cron with
// the notifications' backoff, claimed by one sender at a time.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { runParentOutbox } from "../../worker/features/parents";
import { fakeProvider, PROVIDER_ENV, type ProviderCall } from "../support/fake-provider";
import { uniqueEmail, testEnv } from "../support/worker";
import { ask, DAY, requestOf } from "./parents-support";

const later = (ms: number) => () => new Date(Date.now() + ms);
const cron = (ms: number) => runParentOutbox(createDeps(testEnv(PROVIDER_ENV), later(ms)));
const toParent = (calls: ProviderCall[], parent: string) => calls.filter((call) => call.body.inputs.receivers.includes(parent));

describe("the parent's e-mail's outbox", () => {
  it("a failed send is recorded with its next attempt, not retried before it, then sent by the cron; the request stays open", async () => {
    const provider = fakeProvider("http-500");
    const parent = uniqueEmail("retry");
    await ask(parent, { overrides: PROVIDER_ENV });
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(1);
    const failed = await requestOf(parent);
    expect(failed).toMatchObject({ sentAt: null, attempts: 1, claim: null, lockedUntil: null });
    expect(failed.lastError).toMatch(/500/);
    // The notifications' backoff: NOTIFY_RETRY_BASE_SECONDS after the first failure (60 s by default).
    const wait = new Date(failed.nextAttemptAt!).getTime() - new Date(failed.createdAt).getTime();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3_600_000);

    // Before its time the cron leaves it alone.
    await cron(0);
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(1);

    // Failing again: the attempt counted, the wait longer.
    const afterFirst = new Date(failed.nextAttemptAt!).getTime() - Date.now() + 1000;
    await cron(afterFirst);
    const second = await requestOf(parent);
    expect(second).toMatchObject({ sentAt: null, attempts: 2 });
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(2);

    provider.setMode("success");
    await cron(DAY);
    const sent = await requestOf(parent);
    expect(sent.sentAt).not.toBeNull();
    expect(sent).toMatchObject({ attempts: 3, lastError: null, nextAttemptAt: null, claim: null });
    const calls = toParent(provider.joinerCalls, parent);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.body.inputs.body_html).toContain("/parent?token=");
    // Sent once: the cron does not send it again.
    await cron(2 * DAY);
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(3);
  });

  it("a send its request never finished (the worker stopped) is taken up once its lease lapses", async () => {
    const provider = fakeProvider("success");
    const parent = uniqueEmail("lapsed");
    const now = new Date();
    // Stored with its claim, as askParent stores it, but nobody sent it.
    await env.DB.prepare(
      `insert into hwh_parental_requests (parent_email, mailbox_key, age_band, country, nonce, created_at, origin, attempts, locked_until, claim)
       values (?, 'key', 'under_13', 'US', ?, ?, 'http://localhost', 1, ?, 'the-lost-claim')`,
    )
      .bind(parent, "L".repeat(22), now.toISOString(), new Date(now.getTime() + 60_000).toISOString())
      .run();
    await cron(0);
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(0);
    await cron(120_000);
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(1);
    expect((await requestOf(parent)).sentAt).not.toBeNull();
  });

  it("a request past its 7 days is not sent (nothing left to say), and is marked done", async () => {
    const provider = fakeProvider("success");
    const parent = uniqueEmail("too-late");
    const created = new Date(Date.now() - 8 * DAY).toISOString();
    await env.DB.prepare(
      `insert into hwh_parental_requests (parent_email, mailbox_key, age_band, country, nonce, created_at, origin, attempts, next_attempt_at)
       values (?, 'key', 'under_13', 'US', ?, ?, 'http://localhost', 3, ?)`,
    )
      .bind(parent, "T".repeat(22), created, created)
      .run();
    await cron(0);
    expect(toParent(provider.joinerCalls, parent)).toHaveLength(0);
    const rows = (await env.DB.prepare("select sent_at from hwh_parental_requests where parent_email = ?").bind(parent).all()).results;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sent_at).not.toBeNull();
  });
});
