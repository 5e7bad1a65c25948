import type { Deps } from "../../deps";
import { API_BODY_ERRORS, ApiError, withHeaders } from "../../platform/http/errors";
import type { Stored, SubmissionRequest } from "../../platform/http/submission";
import { ATTRIBUTION_FIELDS, type Attribution, type WaitlistInput, WAITLIST_MESSAGES } from "../../shared/waitlist";
import { isDatabaseUnavailable, withDeadline } from "../../platform/db/errors";
import { AGE_MESSAGES, type AgeBandStored } from "../../shared/age";
import { type AgeDecision, ageHeaders, decideAge, parentMustDecide, parentNeeded } from "../age";
import { askParent, parentAddress } from "../parents";
import { type FirstClaim, firstClaim } from "../notifications";
import { handOver } from "../mail-queue";
import { kickWebhooks } from "../webhooks";
import type { MailJob } from "../mail-queue/jobs";
import { isDisposableAddress } from "./disposable";
import { mailboxKeys, networkKey } from "./keys";
import { waitForDatabase, type WaitingInput, waitParentForDatabase } from "./waiting";
import type { JoinJourney, JoinResult } from "./queries/join";
import { confirmCap, confirmWrite, newReferralJoin, queueMail, withConfirmRetries } from "./writes";

/**
 * Joining the waitlist, the one home of its rules (spec §5, docs/api.md "The joiner's journey"):
 * - an address at a disposable-mail domain is refused at its field, whichever way it joins;
 * - the entry is stored, its notification claimed and counted against the hour's single
 *   e-mails, and the joiner's mail queued, in one batch: either a confirmation e-mail (double
 *   opt-in, within the mailbox's daily cap, re-sent on every re-join of an unconfirmed address)
 *   or, confirmed at once (WAITLIST_DOUBLE_OPT_IN=false, or signing in proved the address), the
 *   confirmation itself and a welcome;
 * - an address already notified is the spec's 409 duplicate, and still gets its mail;
 * - the mails go after the response through the mail queue (worker/features/mail-queue): the
 *   joiner's, and the team's notification when this join holds its claim (otherwise another
 *   request is sending it right now); the request makes no database call after its answer.
 */

/** The code of the 409 for an address already on the list (its page shows it as news: form-page.ts informational). */
export const ALREADY_JOINED = "already_joined";

/** The public join's 400 for an address at a disposable-mail domain. */
export const disposable = () => API_BODY_ERRORS.invalid({ email: WAITLIST_MESSAGES.emailDisposable });

/**
 * Joins with the journey: the spec's join (the upsert, its notification claimed by `claim`) plus
 * the joiner's mail, in one batch. `signedIn`: a one-click join, confirmed at once (signing in
 * proved the address) without counting any referral (it carries none, and a stranger's join may
 * have planted one); otherwise confirmed at once only when double opt-in is off, counting the
 * referral this join carries.
 */
export async function joinWithJourney(
  deps: Deps,
  input: Parameters<Deps["repo"]["waitlist"]["join"]>[0] & { ref?: string | null },
  claim: FirstClaim,
  options: { origin: string; signedIn?: boolean; network?: string | null },
): Promise<JoinResult & { confirmedHere: boolean }> {
  const keys = await mailboxKeys(deps.config.auth.jwtSecret, input.email);
  const [key] = keys;
  // A join confirmed at once keeps its request's network like a confirmation does (the operator's flag).
  const network = options.network ? await networkKey(deps.config.auth.jwtSecret, options.network) : null;
  const atOnce = options.signedIn || !deps.config.waitlist.doubleOptIn;
  const base = {
    mailboxKey: key,
    ref: input.ref ?? null,
    referralJoin: newReferralJoin(),
    mail: queueMail(deps, options.origin),
    cap: confirmCap(deps, key),
  };
  const { result, confirm } = await withConfirmRetries(async () => {
    const confirm = atOnce ? confirmWrite(deps, keys, network, options.signedIn ? "none" : "join") : null;
    const journey: JoinJourney = confirm ? { ...base, kind: "welcome", confirm } : { ...base, kind: "confirm" };
    return { result: await deps.repo.waitlist.join(input, claim, journey), confirm };
  });
  // Joining again is consent again only when this join confirmed the entry itself (signing in
  // proved the address, or the operator turned double opt-in off): anyone can type a stranger's
  // address into the form, so a 409 duplicate or a join still waiting for its confirmation
  // leaves the suppression list alone (the confirmation, confirm.ts, renews it).
  const confirmedHere = confirm !== null && result.current?.confirmClaim === confirm.claim;
  if (confirmedHere) await deps.repo.consent.resubscribe({ mailboxKey: key, event: "rejoined", source: "join", now: deps.now() });
  return { ...result, confirmedHere };
}

/**
 * The mail jobs a stored join hands the mail queue (worker/features/mail-queue): the joiner mail
 * its batch queued, and the team's notification when this join holds its claim (otherwise
 * another request is sending it right now). Also what the joins queue's consumer hands over for
 * the joins it stored (worker/features/joins).
 */
export function mailJobsOfJoin(result: JoinResult): MailJob[] {
  const jobs: MailJob[] = [];
  if (result.joinerMail?.claim) jobs.push({ type: "joiner", id: result.joinerMail.id, claim: result.joinerMail.claim });
  if (result.outcome === "joined" && result.claimed && result.entry.notifyClaim)
    jobs.push({
      type: "notification",
      kind: "waitlist",
      id: result.entry.id,
      claim: result.entry.notifyClaim,
      budgetUsed: result.budgetUsed,
    });
  return jobs;
}

/**
 * What a join does after the response: hands its mail jobs to the mail queue and, when its batch
 * may have stored a webhook event (a new entry, or a confirmation here), kicks the webhooks queue
 * (no database call; the queues' consumers send them). Never throws: a job the queue refused is
 * logged, and its row, stored and claimed, is re-queued by the cron once the claim's lease lapses.
 */
export function afterJoin(deps: Deps, result: JoinResult & { confirmedHere?: boolean }): () => Promise<unknown> {
  const events = result.outcome === "joined" || result.confirmedHere === true;
  return () => Promise.all([handOver(deps, mailJobsOfJoin(result)), ...(events ? [kickWebhooks(deps)] : [])]);
}

/**
 * POST /api/waitlist's store (routes.ts). The joiner's mail goes whatever the spec's answer: a
 * re-join of an unconfirmed address re-sends the confirmation (within the daily cap) even when
 * it is the 409 duplicate. The 201's time is the join's own (never when the address first joined).
 */
export async function join(deps: Deps, input: WaitlistInput, request: SubmissionRequest): Promise<Stored> {
  const { email, parent_email: parentEmail, birth_month: birthMonth, birth_year: birthYear, ...rest } = input;
  // No address and no answer at all is the spec's message first; with an answer (the parent step
  // posts it, and never the child's address again) or a cookie saying a parent decides, the age
  // decides which field is missing: the parent's, or the visitor's own.
  const unanswered = birthMonth === undefined && birthYear === undefined;
  if (email === undefined && parentEmail === null && unanswered && !(await parentMustDecide(deps, request.raw))) throw emailRequired();
  // The age question first (400 at its field when unanswered, nothing stored): it decides whether
  // the child's address may be kept at all. Every answer sets the cookie, whatever comes next.
  const age = await decideAge(deps, { birthMonth, birthYear, request: request.raw });
  const headers = ageHeaders(age);
  try {
    // The parent step sends no child's address: an empty parent's address there is that field's problem.
    if (age.parentNeeded) return { ...(await askForParent(deps, age, parentEmail, request, email === undefined)), headers };
    if (email === undefined) throw emailRequired();
    if (isDisposableAddress(email)) throw disposable();
    // The flood limit counts only a request that stores (routes.ts: limiter.at "store"): here, after every 400.
    await request.limit();
    const claim = firstClaim(deps);
    // The repository reads the address, the placement and the ATTRIBUTION_FIELDS from the input.
    const entry = { ...rest, email, ageBand: age.band, country: age.country };
    let result: Awaited<ReturnType<typeof joinWithJourney>>;
    try {
      // A database that does not answer within JOIN_DB_TIMEOUT_MS refused it (withDeadline). The
      // slow call may still store the entry later: its waiting copy is then dropped as a duplicate
      // by the joins queue's consumer, and the e-mails that call claimed are re-queued by the cron
      // once their lease lapses (worker/features/mail-queue requeueDue), so each goes once.
      const journey = joinWithJourney(deps, entry, claim, { origin: request.origin, network: request.network });
      result = await withDeadline(journey, deps.config.waitlist.dbTimeoutMs);
    } catch (error) {
      // The database refused for load or unavailability, or did not answer in time: the join
      // waits on the joins queue and the visitor gets the spec's success (waiting.ts).
      if (!isDatabaseUnavailable(error)) throw error;
      return { at: await waitForDatabase(deps, waitingInput(entry), request, claim.now, error), headers };
    }
    const after = afterJoin(deps, result);
    if (result.outcome === "duplicate") return { refused: new ApiError(409, ALREADY_JOINED, WAITLIST_MESSAGES.duplicate), after, headers };
    return { at: claim.now, after, headers };
  } catch (error) {
    throw error instanceof ApiError ? withHeaders(error, headers) : error;
  }
}

/** What a waiting join keeps of the public join's validated input (never the form's extras, never a birth month or year). */
function waitingInput(
  entry: {
    email: string;
    source?: string | null;
    ref?: string | null;
    ageBand: AgeBandStored;
    country: string | null;
  } & Partial<Attribution>,
): WaitingInput {
  return {
    email: entry.email,
    source: entry.source ?? null,
    ref: entry.ref ?? null,
    ...(Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, entry[field] ?? null])) as Attribution),
    ageBand: entry.ageBand,
    country: entry.country,
  };
}

/**
 * A join below the consent age (issue 23 §2): the child's address is never stored, mailed or
 * logged. Without a parent's address, the 400 parent_needed at its field; with one, the parents'
 * feature stores the request and its e-mail (worker/features/parents askParent), and the child
 * gets the 202 parent_asked.
 */
async function askForParent(
  deps: Deps,
  age: AgeDecision,
  parentEmail: string | null,
  request: SubmissionRequest,
  parentStep: boolean,
): Promise<Stored> {
  if (parentEmail === null)
    throw parentStep ? API_BODY_ERRORS.invalid({ parent_email: AGE_MESSAGES.parentEmailRequired }) : parentNeeded(age);
  // The parent's address passes its checks (400s), then the flood limit counts the request, before any write.
  parentAddress(parentEmail);
  await request.limit();
  const accepted = {
    json: { status: PARENT_ASKED, message: AGE_MESSAGES.parentSentTitle },
    lines: [AGE_MESSAGES.parentSentTitle, AGE_MESSAGES.parentSentDetail],
  };
  const ask = { parentEmail, band: age.band, country: age.country, origin: request.origin };
  let asked: Stored;
  try {
    // The same deadline as a join's (JOIN_DB_TIMEOUT_MS). A request stored late after all has its
    // e-mail, claimed, re-queued by the cron once the lease lapses; its waiting copy then asks the
    // parent a second time (a parental request is not one per address), within the mailbox's
    // daily cap of e-mails (WAITLIST_CONFIRM_DAILY_LIMIT).
    asked = await withDeadline(askParent(deps, ask), deps.config.waitlist.dbTimeoutMs);
  } catch (error) {
    // The database refused for load or did not answer in time: the request waits on the joins
    // queue with the parent's address only (waiting.ts), and the child gets the same answer.
    if (!isDatabaseUnavailable(error)) throw error;
    await waitParentForDatabase(deps, ask, deps.now(), error);
    return { accepted };
  }
  return { accepted, ...(asked.after ? { after: asked.after } : {}) };
}

/** The 202's status of a child's join that asked a parent. */
export const PARENT_ASKED = "parent_asked";

/** The public join's 400 for a missing address (the schema lets it be left out only on the parent step). */
const emailRequired = () => API_BODY_ERRORS.invalid({ email: WAITLIST_MESSAGES.emailRequired });
