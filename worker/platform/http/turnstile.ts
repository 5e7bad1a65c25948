import type { Context } from "hono";
import type { AppConfig } from "../config/config";
import { describeError, log } from "../log";
import { HONEYPOT_FIELD, isBot, PUBLIC_FORM_ERRORS, TURNSTILE_FIELD } from "../../shared/public-forms";
import { clientAddress } from "./client";
import type { PlatformEnv } from "./env";
import { ApiError } from "./errors";

/** How long to wait for Turnstile's siteverify before refusing the submission (503). */
const VERIFY_TIMEOUT_MS = 5_000;

/**
 * Checks a Turnstile token with Cloudflare's siteverify API (TURNSTILE_VERIFY_URL) before a
 * public form stores anything. Off (resolves at once) unless both Turnstile keys are set. A
 * missing, expired, reused or forged token is a 403; siteverify not answering is a 503. Either
 * way nothing is stored, and the visitor's form keeps what they typed.
 */
export async function requireHuman(turnstile: AppConfig["turnstile"], token: string, clientIp: string | null): Promise<void> {
  if (!turnstile.enabled) return;
  if (token.trim() === "") throw notVerified();
  const form = new URLSearchParams({ secret: turnstile.secretKey, response: token });
  if (clientIp) form.set("remoteip", clientIp);
  let outcome: { success?: unknown; "error-codes"?: unknown };
  try {
    const response = await fetch(turnstile.verifyUrl, { method: "POST", body: form, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`siteverify answered HTTP ${response.status}`);
    outcome = await response.json();
  } catch (error) {
    log("error", "turnstile.unavailable", { error: describeError(error) });
    throw new ApiError(503, "verification_unavailable", PUBLIC_FORM_ERRORS.verificationUnavailable, {}, { "Retry-After": "60" });
  }
  if (outcome.success !== true) {
    const codes = Array.isArray(outcome["error-codes"]) ? outcome["error-codes"].map(String).slice(0, 5) : [];
    log("warn", "turnstile.refused", { error_codes: codes });
    throw notVerified();
  }
}

const notVerified = () => new ApiError(403, "verification_failed", PUBLIC_FORM_ERRORS.notVerified);

/**
 * The screening every public form submission goes through once its body is valid: a filled
 * honeypot is a bot ("bot": the route answers its normal success and stores nothing); anyone
 * else must pass Turnstile when it is configured (throws 403/503 otherwise).
 */
export async function screenSubmission<E extends PlatformEnv>(
  c: Context<E>,
  input: { [HONEYPOT_FIELD]?: string; [TURNSTILE_FIELD]?: string },
): Promise<"bot" | "person"> {
  if (isBot(input)) return "bot";
  await requireHuman(c.get("deps").config.turnstile, input[TURNSTILE_FIELD] ?? "", clientAddress(c.req.raw.headers));
  return "person";
}
