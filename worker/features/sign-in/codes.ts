import type { Deps } from "../../deps";
import { judge, judgeAll } from "../../platform/limits";
import { describeError, log } from "../../platform/log";
import { signInCodeEmail } from "./email";
import { codeWaitMessage } from "../../shared/sign-in";
import { AuthError } from "./errors";
import { addressCaps, canonicalMailbox, mailboxCaps, unsentCaps } from "./mailbox";
import type { CounterCap } from "../../platform/db/counters";
import { jwtSecret } from "./request";
import { codeHash, randomCode } from "./secrets";
import { deviceCaps, provenDevice } from "./device";

/** POST /otp: issuing a sign-in code and e-mailing it, within the cooldown and the caps. */

/** `device`: the request's device cookie (worker/features/sign-in/device.ts), if it sent one. */
export type CodeRequest = { email: string; createUser: boolean; data: Record<string, unknown> | null; device?: string | undefined };

const tooManyCodes = (wait: number) =>
  new AuthError(429, "over_email_send_rate_limit", codeWaitMessage(wait), {
    "Retry-After": String(wait),
  });

/**
 * Issues a new code for the address and e-mails it. No user is created here: a user exists
 * only once a code sent to the address is verified, and `data` is kept with the code for that
 * moment. With create_user false an address without a user gets the same answer after the
 * same statements and the same work (it is counted and judged alike, its cooldown holds, its
 * code is hashed), but no code is stored and nothing is e-mailed, so the answer never tells
 * whether an address has an account.
 *
 * Two rules decide whether a code may be sent, in this order:
 * 1. the caps (AUTH_CODE_HOURLY_LIMIT per clock hour, AUTH_CODE_DAILY_LIMIT per UTC day) of the
 *    address, and of its mailbox's other spellings unless it is one of the mailbox's own, or those
 *    of the device when its cookie proves it signed in as the address (see countAndJudge); over
 *    one, the answer says to come back when that window ends;
 * 2. the cooldown of the exact address (AUTH_CODE_COOLDOWN_SECONDS), decided by the upsert
 *    that stores the code, so concurrent requests store and send one code;
 * a request refused by either takes back its counts (best effort), so only requests that got
 * through count against the caps.
 *
 * The code is stored before it is sent, so a code in an e-mail always works. With create_user
 * true the e-mail is sent before answering: if it cannot be sent the code is withdrawn, its
 * cooldown and counts given back, and the answer says so. With create_user false it is sent
 * after the answer has gone out (the time to answer would otherwise tell a known address from
 * an unknown one); if it fails, the code is cleared and nothing else: the cooldown and counts
 * stay, exactly as an unknown address's request leaves them, so retries cannot tell them apart.
 */
export async function requestCode(deps: Deps, input: CodeRequest, defer: (work: Promise<unknown>) => void): Promise<void> {
  const { repo, config, now } = deps;
  const secret = jwtSecret(config);
  const at = now();
  const [user, entry, device] = await Promise.all([
    repo.signIn.findUserByEmail(input.email),
    repo.waitlist.entryByEmail(input.email),
    provenDevice(secret, input.email, input.device, at),
  ]);
  const hasUser = user !== undefined;
  const sendsCode = input.createUser || hasUser;
  // A confirmed waitlist entry's address was proven by its owner (the link in its inbox).
  const ownSpelling = hasUser || entry?.confirmedAt != null || isOwnSpelling(deps, input.email);

  // Hashed on both paths, so an unknown address costs the same work as a known one.
  const code = randomCode(config.auth.codeLength);
  const hash = await codeHash(secret, input.email, code);

  const counted = await countAndJudge(deps, { secret, email: input.email, sendsCode, ownSpelling, device, at });
  const giveBack = () => giveBackCounts(deps, counted);

  const stored = await repo.signIn.storeCode({
    email: input.email,
    codeHash: sendsCode ? hash : null,
    userMetadata: input.createUser ? (input.data ?? {}) : null,
    now: at,
    expiresAt: new Date(at.getTime() + config.auth.codeTtlSeconds * 1000),
    cooldownSeconds: config.auth.codeCooldownSeconds,
  });
  if (!stored.stored) {
    await giveBack();
    throw tooManyCodes(stored.retryAfterSeconds);
  }
  if (!sendsCode) return;

  if (!input.createUser) {
    defer(sendAfterAnswer(deps, input.email, code, hash));
    return;
  }
  try {
    await sendCode(deps, input.email, code);
  } catch (error) {
    await Promise.all([
      repo.signIn.withdrawCode(input.email, hash).catch((withdrawError: unknown) => {
        log("error", "auth.code_withdraw_failed", { error: describeError(withdrawError) });
      }),
      giveBack(),
    ]);
    const message =
      deps.visitorTransport.name === "unconfigured"
        ? "Sign-in e-mails are not configured on this server."
        : "The e-mail with your code could not be sent. Please try again in a moment.";
    throw new AuthError(500, "unexpected_failure", message, {}, { cause: error });
  }
}

/**
 * Whether `email` is one of its mailbox's own spellings whatever its account: the mailbox's plain
 * address (no "+tag", and for Gmail no dots, under gmail.com: canonicalMailbox gives it back
 * unchanged) or an operator's (OPERATOR_EMAILS). An account's address and a confirmed waitlist
 * entry's are too (requestCode).
 */
function isOwnSpelling(deps: Deps, email: string): boolean {
  return canonicalMailbox(email) === email || deps.config.operatorEmails.has(email);
}

type CountInput = { secret: string; email: string; sendsCode: boolean; ownSpelling: boolean; device: string | null; at: Date };

/**
 * Counts the request and judges it against the caps; over one, takes the count back and
 * throws the 429. Resolves the counters it counted against (to give back if the code is not
 * stored or not sent).
 *
 * A code that is e-mailed counts against its exact address's caps and, unless the address is
 * one of its mailbox's own spellings (the plain address, an account's, a confirmed waitlist
 * entry's, an operator's), against the mailbox's ceiling, which all its other spellings share (worker/features/sign-in/mailbox.ts):
 * so `victim+1@…` … `victim+5@…` asked from five clients fill the ceiling and nothing else, and
 * `victim@…` still gets its code. An inbox receives at most the ceiling plus each own spelling's
 * caps (10 an hour and 40 a day by default, with one account at the plain address); an account at
 * another spelling adds its caps, and only someone who reads the inbox can make one (or confirm an
 * entry). A code e-mailed at the request of a device that has signed in as the exact address (its
 * cookie proves it: worker/features/sign-in/device.ts) counts against that device's caps instead,
 * and nothing else, so strangers who fill the address's own caps never stop its owner's device.
 *
 * Requests that send nothing (create_user false for an address without a user) must not fill
 * either, or anyone could lock a person out without a single e-mail: they count against the exact
 * address's own counters of requests that sent nothing, and are judged by those plus the codes
 * e-mailed to the address. For an address without a user that second count is only ever what
 * create_user true sent there, so the request is refused exactly where one for the same address
 * with a user (whose requests all send, judged by their own caps) would be. Both paths run the
 * same statements (one count of two counters, one read of two others) and the same keyed hashing.
 *
 * Not counted per client: a count of a client's requests that send nothing would tell apart the
 * next address it asks for (refused if unknown, sent if known); every request is already counted
 * per client by the route's limit (AUTH_RATE_LIMIT_OTP).
 */
async function countAndJudge(deps: Deps, { secret, email, sendsCode, ownSpelling, device, at }: CountInput): Promise<CounterCap[]> {
  const [address, mailbox, unsent, ofDevice] = await Promise.all([
    addressCaps(secret, email, at, deps.config.auth),
    mailboxCaps(secret, email, at, deps.config.auth),
    unsentCaps(secret, email, at, deps.config.auth),
    deviceCaps(secret, email, device ?? "none", at, deps.config.auth),
  ]);
  const sent = device !== null ? ofDevice : ownSpelling ? address : [...address, ...mailbox];
  const counted = sendsCode ? sent : unsent;
  const other = sendsCode ? unsent : address;
  const [counts, otherCounts] = await Promise.all([deps.repo.counters.countAll(counted), deps.repo.signIn.readCounts(other)]);
  const totals = sendsCode ? counts : counts.map((count, index) => count + otherCounts[index]!);
  const verdict = judgeAll(counted.map((cap, index) => judge(totals[index]!, cap.max, cap.window.end, at)));
  if (!verdict.allowed) {
    await giveBackCounts(deps, counted);
    throw tooManyCodes(verdict.retryAfterSeconds);
  }
  return counted;
}

/** Takes back a request's counts (best effort: a failure is logged, never thrown). */
function giveBackCounts(deps: Deps, counted: CounterCap[]): Promise<void> {
  return deps.repo.counters.uncountAll(counted).catch((error: unknown) => {
    log("error", "auth.code_caps_give_back_failed", { error: describeError(error) });
  });
}

/** E-mails a stored code (into the dev mailbox in development); throws when it cannot be sent. */
async function sendCode(deps: Deps, email: string, code: string): Promise<void> {
  const mail = signInCodeEmail({ code, validMinutes: Math.round(deps.config.auth.codeTtlSeconds / 60) });
  try {
    // A visitor's e-mail, never a campaign: the suppression list does not apply.
    const receipt = await deps.visitorTransport.send({ receivers: [email], title: mail.title, bodyHtml: mail.bodyHtml });
    if (receipt.devMail) await deps.repo.devMail.insert(receipt.devMail, deps.now());
  } catch (error) {
    log("error", "auth.code_email_failed", { transport: deps.visitorTransport.name, error: describeError(error) });
    throw error;
  }
}

/**
 * The create_user:false send, run through waitUntil: it starts only after a macrotask, so the
 * answer (built in microtasks) has gone out before the e-mail is even begun. A failure clears
 * the code only (see requestCode) and is logged; it never rejects.
 */
async function sendAfterAnswer(deps: Deps, email: string, code: string, hash: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  try {
    await sendCode(deps, email, code);
  } catch {
    await deps.repo.signIn.clearCode(email, hash).catch((error: unknown) => {
      log("error", "auth.code_clear_failed", { error: describeError(error) });
    });
  }
}
