/**
 * The sign-in rules the worker and the web app both rely on (the web app imports this as
 * @shared/sign-in): how long a code is, how long to wait between codes, and the words in which
 * the server states a wait, with the parser the login page reads the seconds back with. One
 * home each, so a reworded message cannot silently break the page's countdown.
 */

/** Digits in a sign-in code (product spec: a 6-digit code). */
export const CODE_LENGTH = 6;

/** Seconds before the same address may ask for another code (AUTH_CODE_COOLDOWN_SECONDS' default). */
export const CODE_COOLDOWN_SECONDS = 60;

/**
 * GoTrue's message when a code cannot be sent yet (the cooldown, or a mailbox's cap), the one
 * @supabase/auth-js clients show and parse.
 */
export function codeWaitMessage(seconds: number): string {
  return `For security purposes, you can only request this after ${seconds} seconds.`;
}

/** GoTrue's message when a client has sent too many requests to one sign-in route. */
export function requestRateMessage(seconds: number): string {
  return `Request rate limit reached. Try again in ${seconds} seconds.`;
}

/**
 * The seconds a wait message states (either message above, "... after 42 seconds." or "Try
 * again in 42 seconds."), or null when it states none.
 */
export function secondsFromWaitMessage(message: string): number | null {
  const seconds = /(\d+)\s*seconds?/i.exec(message)?.[1];
  return seconds === undefined ? null : Number(seconds);
}
