// What the parents-*.test.ts files share (worker/features/parents): a child's request stored as the
// join routes store it, its link's token, the parent's page opened and answered as a browser does.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createDeps } from "../../worker/deps";
import { askParent } from "../../worker/features/parents";
import { parentToken } from "../../worker/features/parents/token";
import { FORM_MEDIA_TYPE } from "../../worker/platform/http/body";
import { parentalRequests, type ParentalRequest } from "../../worker/platform/db/schema";
import type { AgeBand } from "../../worker/shared/age";
import { call, type EnvOverrides, testRepository, testEnv } from "../support/worker";

export const repo = testRepository();
export const DAY = 86_400_000;
/** What a browser sends when the page's own form is submitted. */
export const BROWSER = { "Sec-Fetch-Site": "same-origin", Origin: "http://localhost" };

/** A child's request for `parentEmail`, as the join routes make it, with its e-mail sent (the work after the answer, awaited). */
export async function ask(
  parentEmail: string,
  more: { band?: AgeBand; country?: string | null; overrides?: EnvOverrides; now?: () => Date } = {},
) {
  const deps = createDeps(testEnv(more.overrides ?? {}), more.now);
  const stored = await askParent(deps, {
    parentEmail,
    band: more.band ?? "under_13",
    country: more.country === undefined ? "US" : more.country,
    origin: "http://localhost",
  });
  await stored.after?.();
  return stored;
}

/** The stored requests of a parent's address. */
export const requestsOf = async (parentEmail: string): Promise<ParentalRequest[]> =>
  (await repo.rowsOf(parentalRequests)).filter((row) => row.parentEmail === parentEmail);

/** The one stored request of a parent's address. */
export async function requestOf(parentEmail: string): Promise<ParentalRequest> {
  const rows = await requestsOf(parentEmail);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The link's token of a request, as the e-mail carries it. */
export const tokenOf = (request: ParentalRequest) => parentToken(createDeps(env), request);

/** The dev mailbox's messages to an address. */
export const mailsTo = async (email: string) => (await repo.devMail.list(1000)).filter((mail) => mail.receivers.includes(email));

/** GET /parent?token=… */
export const open = (token: string, overrides: EnvOverrides = {}) => call(`/parent?token=${encodeURIComponent(token)}`, {}, overrides);

/** POST /parent: a press of one of the page's buttons. */
export const press = (token: string, answer: string, headers: Record<string, string> = BROWSER) =>
  call("/parent", {
    method: "POST",
    headers: { "Content-Type": FORM_MEDIA_TYPE, ...headers },
    body: new URLSearchParams({ token, answer }).toString(),
  });

/** The day's count of an outcome. */
export async function outcomeCount(outcome: "agreed" | "declined"): Promise<number> {
  const day = new Date().toISOString().slice(0, 10);
  const row = await env.DB.prepare("select count from hwh_parental_outcomes where day = ? and outcome = ?")
    .bind(day, outcome)
    .first<{ count: number }>();
  return row?.count ?? 0;
}
