// Helpers for the operator API's campaign routes (test/worker/campaign-api*.test.ts).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { CampaignAudience, CampaignDraftInput, CampaignJson } from "../../worker/shared/campaigns";
import { signIn } from "./auth";
import { call, type EnvOverrides } from "./worker";

export const OPERATOR = "campaigns-operator@example.com";
export const ADMIN_KEY = "test-admin-key-0123456789abcdef-0123456789";
/** The operator list every call runs with unless a test says otherwise. */
export const OPERATORS: EnvOverrides = { OPERATOR_EMAILS: `other-operator@example.com, ${OPERATOR}` };

export type ErrorBody = { error: { code: string; message: string; field?: string; [key: string]: unknown } };

/** The messages handed to the campaign queue, kept instead of consumed (nothing is sent behind a test's back). */
export type QueueRecord = { body: unknown; delaySeconds?: number };

export function fakeQueue(): { queue: Queue; sent: QueueRecord[] } {
  const sent: QueueRecord[] = [];
  const queue = {
    async send(body: unknown, options?: QueueSendOptions) {
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    async sendBatch(messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) {
      for (const message of messages) sent.push({ body: message.body, delaySeconds: message.delaySeconds ?? options?.delaySeconds });
    },
  } as unknown as Queue;
  return { queue, sent };
}

/** A call to /api/admin/campaigns<path> with a bearer token (or none); a body given is sent as JSON. */
export function campaignCall(
  path: string,
  token: string | null,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  overrides: EnvOverrides = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  return call(
    `/api/admin/campaigns${path}`,
    { method: init.method ?? (body === undefined ? "GET" : "POST"), headers, body },
    {
      ...OPERATORS,
      ...overrides,
    },
  );
}

export async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** The answer's error, checked to be `status` with `code`. */
export async function failure(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  const body = await json<ErrorBody>(response, status);
  expect(body.error.code).toBe(code);
  return body.error;
}

let operatorToken: { file: string | undefined; token: Promise<string> } | undefined;
/**
 * The operator's access token (one sign-in per test file). The files share this module (isolate:
 * false) but each starts on an empty database, so a token is kept for the file that signed in only.
 */
export function operator(): Promise<string> {
  const file = expect.getState().testPath;
  if (operatorToken && operatorToken.file === file) return operatorToken.token;
  const token = signIn(OPERATOR).then((session) => session.access_token);
  operatorToken = { file, token };
  return token;
}

/** A draft that passes every rule, for the audience given. */
export function draft(audience: CampaignAudience, subject = "We're open"): CampaignDraftInput {
  return { subject, body: "Hello!\n\nYour place is ready: https://homeworkhelper.example/start", audience };
}

export async function createDraft(audience: CampaignAudience, overrides: EnvOverrides = {}): Promise<CampaignJson> {
  return json<CampaignJson>(await campaignCall("", ADMIN_KEY, { body: draft(audience) }, overrides), 201);
}

let seq = 10_000_000 + Math.floor(Math.random() * 1000) * 10_000;
let tags = 0;
/** A utm_source no other test uses, so an audience narrowed to it holds exactly what the test seeded. */
export function uniqueTag(): string {
  tags += 1;
  return `camp${Date.now().toString(36)}${tags}`;
}

/**
 * `n` confirmed entries joined with utm_source `tag`, in line in the order given (rank_key and
 * confirm_seq rising), as the journey writes them. Returns their addresses and ids in line order.
 */
export async function seedConfirmed(tag: string, n: number, options: { pending?: number } = {}): Promise<{ email: string; id: number }[]> {
  const at = new Date().toISOString();
  const insert = env.DB.prepare(
    `insert into hwh_waitlist (email, utm_source, created_at, updated_at, confirmed_at, confirm_seq, rank_key, mailbox_key)
     values (?, ?, ?, ?, ?, ?, ?, ?) returning id`,
  );
  const statements = Array.from({ length: n }, (_, i) => {
    seq += 1;
    return insert.bind(`${tag}-${i}@example.com`, tag, at, at, at, seq, 2 * seq, `${tag}-key-${i}`);
  });
  for (let i = 0; i < (options.pending ?? 0); i++) {
    statements.push(
      env.DB.prepare("insert into hwh_waitlist (email, utm_source, created_at, updated_at) values (?, ?, ?, ?) returning id").bind(
        `${tag}-pending-${i}@example.com`,
        tag,
        at,
        at,
      ),
    );
  }
  const results = await env.DB.batch<{ id: number }>(statements);
  return results.slice(0, n).map((result, i) => ({ email: `${tag}-${i}@example.com`, id: result.results[0]!.id }));
}

/** The audit trail's newest records of an action. */
export async function auditOf(action: string): Promise<{ operator: string; details: Record<string, unknown> }[]> {
  const { results } = await env.DB.prepare("select operator, details from hwh_audit_log where action = ? order by id desc")
    .bind(action)
    .all<{ operator: string; details: string }>();
  return results.map((row) => ({ operator: row.operator, details: JSON.parse(row.details) as Record<string, unknown> }));
}
