import { missingSenderSettings } from "./campaigns";
import type { AppConfig } from "./config";
import { unpublishedRetention } from "./retention";

/**
 * What production cannot run without: the checks behind /api/health's 503 (docs/configuration.md,
 * "Configuration fails closed"), and what sign-in and the admin key take for a usable secret.
 */

/** Shortest acceptable secrets: the JWT secret and the admin key 32 characters, a provider token 16. */
export const MIN_JWT_SECRET_LENGTH = 32;
export const MIN_ADMIN_KEY_LENGTH = 32;
export const MIN_PROVIDER_TOKEN_LENGTH = 16;

/**
 * A value someone forgot to replace: empty, a documentation domain (RFC 2606: example, test,
 * invalid, localhost) or a "change me" marker.
 */
export function isPlaceholder(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (text === "") return true;
  if (/change[-_ ]?me|placeholder|replace[-_ ]?me|your[-_]|^x+$|^<.*>$/.test(text)) return true;
  const hosts = text.match(/(?:@|\/\/)([^/:@?#\s]+)/g)?.map((match) => match.replace(/^@|^\/\//, "")) ?? [];
  return hosts.some((host) => /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/.test(host));
}

/** Words a hurried person types for a secret; a value made only of them (and digits) is not one. */
const GUESSABLE =
  /^(?:test|todo|tbd|password|passwd|secret|admin|token|key|default|dummy|sample|demo|dev|local|prod|changeme|letmein|qwerty|abc|123)+\d*$/;

/**
 * A secret that cannot be trusted: a placeholder, shorter than `minLength`, made of a handful of
 * distinct characters ("aaaa...", "abababab..."), or only guessable words ("secretsecret",
 * "test123"). Random values (`openssl rand -hex 32`) pass.
 */
export function isWeakSecret(value: string, minLength: number): boolean {
  const text = value.trim();
  if (isPlaceholder(text) || text.length < minLength) return true;
  if (new Set(text.toLowerCase()).size < 8) return true;
  return GUESSABLE.test(text.toLowerCase().replace(/[^a-z0-9]/g, ""));
}

/**
 * The names of the settings production cannot run without, where they are missing, still
 * placeholders or (for secrets) too weak to trust. Names only, never values: this list is shown
 * by the public health check.
 */
export function missingProductionSettings(config: AppConfig): string[] {
  if (config.isDevelopment) return [];
  const missing: string[] = [];
  const { auth, mail, turnstile } = config;
  if (isWeakSecret(auth.jwtSecret, MIN_JWT_SECRET_LENGTH)) missing.push("AUTH_JWT_SECRET");
  if (isWeakSecret(auth.adminKey, MIN_ADMIN_KEY_LENGTH)) missing.push("AUTH_ADMIN_KEY");
  if (isWeakSecret(mail.token, MIN_PROVIDER_TOKEN_LENGTH)) missing.push("MAIL_PROVIDER_TOKEN");
  if (!/^https?:\/\/[^\s]+$/.test(mail.apiUrl) || isPlaceholder(mail.apiUrl)) missing.push("MAIL_API_URL");
  if (config.companyEmails.length === 0 || config.companyEmails.some(isPlaceholder)) missing.push("COMPANY_EMAIL");
  // Without it, pages would name whatever host a request claims (features/pages/routes.ts leaves them relative).
  if (isPlaceholder(config.siteUrl)) missing.push("SITE_URL");
  // The bulk-mail laws ask every campaign e-mail to name its sender and a postal address.
  missing.push(...missingSenderSettings(config.campaigns));
  // Half a Turnstile configuration is a mistake, not a choice to leave it off.
  if (turnstile.siteKey !== "" && turnstile.secretKey === "") missing.push("TURNSTILE_SECRET_KEY");
  if (turnstile.secretKey !== "" && turnstile.siteKey === "") missing.push("TURNSTILE_SITE_KEY");
  if (turnstile.enabled && isPlaceholder(turnstile.verifyUrl)) missing.push("TURNSTILE_VERIFY_URL");
  // The cron keeps to the schedule the privacy policy publishes, or production does not run.
  missing.push(...unpublishedRetention(config.retention));
  return missing;
}
