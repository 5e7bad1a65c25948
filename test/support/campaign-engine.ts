import { createExecutionContext, createMessageBatch, getQueueResult, type QueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { DEAD_LETTER_QUEUE, type CampaignMessage } from "../../worker/features/campaigns/messages";
import type { Campaign, CampaignRecipient } from "../../worker/platform/db/schema";
import { startCampaign } from "../../worker/features/campaigns/actions";
import { createDeps, type Deps } from "../../worker/deps";
import worker from "../../worker/index";
import type { CampaignAudience } from "../../worker/shared/campaigns";
import { testRepository } from "./worker";

/**
 * The campaign engine's tests (test/worker/campaign-engine*.test.ts) drive the worker's own
 * queue handler with message batches (cloudflare:test createMessageBatch / getQueueResult),
 * against a producer that only records what was enqueued, so each test decides when, how
 * often and in which order messages arrive (redelivery, races, the dead-letter queue). The
 * end-to-end test uses the real local queue instead.
 *
 * Other test files share the database, so each test's entries carry a utm_source of its own
 * and its campaigns name it: no campaign ever reaches another test's entries.
 */

export const CAMPAIGN_QUEUE_NAME = "homework-helper-campaigns";

/** A producer binding that keeps what is enqueued (with each message's delay). */
export function recordingQueue() {
  let failures = 0;
  const pending: { body: CampaignMessage; delaySeconds?: number }[] = [];
  const binding = {
    async send(body: CampaignMessage, opts?: { delaySeconds?: number }) {
      pending.push({ body, delaySeconds: opts?.delaySeconds });
    },
    async sendBatch(messages: Iterable<{ body: CampaignMessage; delaySeconds?: number }>) {
      if (failures > 0) {
        failures -= 1;
        throw new Error("Queue send failed (simulated)");
      }
      for (const message of messages) pending.push({ body: message.body, delaySeconds: message.delaySeconds });
    },
  };
  return {
    binding: binding as unknown as Queue,
    pending,
    take: () => pending.splice(0),
    /** The next `count` sendBatch calls fail (a crash before the messages were handed over). */
    failNext(count: number) {
      failures = count;
    },
  };
}

export type RecordingQueue = ReturnType<typeof recordingQueue>;

let tags = 0;
/** A utm_source no other test uses. */
export function uniqueTag(name: string): string {
  tags += 1;
  return `${name}-${Date.now().toString(36)}-${tags}`.toLowerCase();
}

/** The env of a test: its recording queue, no send rate to speak of unless given, and the rest of the test env. */
export function engineEnv(queue: RecordingQueue, overrides: Partial<Record<keyof Env, unknown>> = {}): Env {
  return { ...env, CAMPAIGN_QUEUE: queue.binding, CAMPAIGN_SEND_RATE: "10000", ...overrides } as Env;
}

/**
 * `count` confirmed entries of utm_source `tag`, one statement (a recursive CTE), in line
 * after every entry there is: places follow confirm_seq. Mailbox keys are 64 hex digits.
 */
export async function seedConfirmed(tag: string, count: number): Promise<void> {
  const at = new Date().toISOString();
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1),
       base(b) as (select coalesce(max(confirm_seq), 0) from hwh_waitlist)
     insert into hwh_waitlist (email, utm_source, mailbox_key, confirmed_at, confirm_seq, rank_key, referral_code, email_sent, created_at, updated_at)
     select ?2 || '-' || i || '@example.com', ?2, lower(hex(randomblob(32))), ?3, b + i, 2 * (b + i), ?2 || '-' || i, 1, ?3, ?3 from n, base`,
  )
    .bind(count, tag, at)
    .run();
}

/** A draft campaign to `audience` (created as the operator API does). */
export async function draft(audience: CampaignAudience, subject = "We are open"): Promise<Campaign> {
  return testRepository().campaigns.create(
    { subject, body: "Come in.\n\nhttps://homeworkhelper.test/start", audience },
    "ops@example.com",
    new Date(),
  );
}

export function depsOf(testEnv: Env): Deps {
  return createDeps(testEnv);
}

export type TestCampaign = {
  /** A wave of the first `wave` by place instead of everyone. */
  wave?: number;
  overrides?: Partial<Record<keyof Env, unknown>>;
  /** When to send (a scheduled campaign); now by default. */
  sendAt?: Date;
  /** The origin of the campaign's links when SITE_URL is unset (the operator's console). */
  origin?: string;
};

/**
 * What most engine tests start from: `count` confirmed entries of a utm_source of their own
 * (uniqueTag(name)), a recording queue with the env and deps around it, and a draft to those
 * entries, started. Nothing is delivered yet: the queue holds what the start enqueued.
 */
export async function startedCampaign(name: string, count: number, options: TestCampaign = {}) {
  const tag = uniqueTag(name);
  await seedConfirmed(tag, count);
  const queue = recordingQueue();
  const testEnv = engineEnv(queue, options.overrides);
  const deps = depsOf(testEnv);
  const audience: CampaignAudience =
    options.wave === undefined ? { kind: "all", utm_source: tag } : { kind: "wave", size: options.wave, utm_source: tag };
  const campaign = await draft(audience);
  const started = await startCampaign(deps, campaign.id, options.sendAt ?? null, options.origin);
  return { tag, queue, testEnv, deps, campaign, started };
}

/** startedCampaign, its expand message delivered: `sends` are its send messages, not yet delivered. */
export async function expandedCampaign(name: string, count: number, options: TestCampaign = {}) {
  const campaign = await startedCampaign(name, count, options);
  await deliver(
    campaign.testEnv,
    campaign.queue.take().map((m) => m.body),
  );
  const sends = campaign.queue.take().map((m) => m.body) as Extract<CampaignMessage, { type: "send" }>[];
  return { ...campaign, sends };
}

/** Delivers messages to the worker's queue handler as one batch; `attempts` as Queues counts them (1 = first delivery). */
export async function deliver(
  testEnv: Env,
  bodies: CampaignMessage[],
  options: { queue?: string; attempts?: number } = {},
): Promise<QueueResult & { ids: string[] }> {
  const ids = bodies.map(() => crypto.randomUUID());
  const batch = createMessageBatch(
    options.queue ?? CAMPAIGN_QUEUE_NAME,
    bodies.map((body, i) => ({ id: ids[i]!, timestamp: new Date(), attempts: options.attempts ?? 1, body })),
  );
  // getQueueResult names the retried messages but not their delays: the delays are read here.
  const delays = new Map<string, number | undefined>();
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    Object.defineProperty(message, "retry", {
      value: (options?: QueueRetryOptions) => {
        delays.set(message.id, options?.delaySeconds);
        retry(options);
      },
    });
  }
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch, testEnv);
  const result = await getQueueResult(batch, ctx);
  const retryMessages = result.retryMessages.map((retried) => ({ ...retried, delaySeconds: delays.get(retried.msgId) }));
  return { ...result, retryMessages, ids };
}

export type DrainReport = { delivered: number; retried: { delaySeconds?: number }[]; deadLettered: number };

/**
 * Plays the queue until nothing is left: delivers what was enqueued in batches of 50 (delays
 * are not waited for), redelivers a retried message with one more attempt, and after
 * `maxRetries` retries hands it to the dead-letter queue, as wrangler.toml configures Queues.
 */
export async function drain(testEnv: Env, queue: RecordingQueue, maxRetries = 5): Promise<DrainReport> {
  const report: DrainReport = { delivered: 0, retried: [], deadLettered: 0 };
  let retrying: { body: CampaignMessage; attempts: number }[] = [];
  for (let round = 0; round < 500; round += 1) {
    const fresh = queue.take().map(({ body }) => ({ body, attempts: 1 }));
    const due = [...fresh, ...retrying];
    retrying = [];
    if (due.length === 0) return report;
    for (let i = 0; i < due.length; i += 50) {
      const slice = due.slice(i, i + 50);
      for (const attempts of new Set(slice.map((m) => m.attempts))) {
        const group = slice.filter((m) => m.attempts === attempts);
        const result = await deliver(
          testEnv,
          group.map((m) => m.body),
          { attempts },
        );
        report.delivered += group.length;
        for (const retry of result.retryMessages) {
          const message = group[result.ids.indexOf(retry.msgId)]!;
          report.retried.push({ delaySeconds: retry.delaySeconds });
          if (message.attempts > maxRetries) {
            report.deadLettered += 1;
            await deliver(testEnv, [message.body], { queue: DEAD_LETTER_QUEUE });
          } else retrying.push({ body: message.body, attempts: message.attempts + 1 });
        }
      }
    }
  }
  throw new Error("the queue did not drain in 500 rounds");
}

/** The campaign's rows by id. */
export async function rowsOf(campaignId: number): Promise<CampaignRecipient[]> {
  return testRepository().campaignDelivery.rowsOf(campaignId, 0, 100_000);
}

export async function campaignNow(id: number): Promise<Campaign> {
  return (await testRepository().campaignDelivery.campaign(id))!;
}

/** The provider's run requests a campaign made, and a switch for how the provider answers each. */
export type ProviderRequest = { receivers: string[]; title: string; idempotencyKey: string | null; bodyText: string };

/**
 * Stands in for the provider (PROVIDER_ENV below makes the worker use it): records each
 * campaign request and answers with `answer(request)` (default: accepted).
 */
export function stubProvider(answer: (request: ProviderRequest) => Response = () => Response.json({ send_email_status: "success" })) {
  const requests: ProviderRequest[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const { inputs } = (await request.json()) as { inputs: { receivers: string[]; title: string; body_text: string } };
    const seen = {
      receivers: inputs.receivers,
      title: inputs.title,
      bodyText: inputs.body_text,
      idempotencyKey: request.headers.get("Idempotency-Key"),
    };
    requests.push(seen);
    return answer(seen);
  });
  return requests;
}

export const PROVIDER_ENV = { MAIL_PROVIDER_TOKEN: "test-provider-token", MAIL_API_URL: "https://provider.test/v1/run" } as const;

/** Sets columns of a campaign's rows or the campaign itself directly: a crash's leftovers, a clock gone by. */
export async function sql(query: string, ...params: unknown[]): Promise<void> {
  await env.DB.prepare(query)
    .bind(...params)
    .run();
}
