/**
 * Turnstile's names the page and the browser tests share; free of DOM and React, so the tests,
 * type-checked for Node, can import them.
 */
import { TURNSTILE_META } from "@shared/public-forms";
import { TURNSTILE_ORIGIN } from "@shared/security-headers";

/** The <meta name> under which the page carries its Turnstile site key (set by the worker). */
export const SITE_KEY_META = TURNSTILE_META;

/** Turnstile's script, asked to wait for explicit turnstile.render() calls. */
export const TURNSTILE_SCRIPT_URL = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`;
