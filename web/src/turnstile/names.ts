/**
 * Turnstile's names the page and the browser tests share; free of DOM and React, so the tests,
 * type-checked for Node, can import them. Relative imports (not "@shared"): Node-run tests
 * import this file too.
 */
import { TURNSTILE_META } from "../../../worker/shared/public-forms";
import { TURNSTILE_ORIGIN } from "../../../worker/shared/security-headers";

/** The <meta name> under which the page carries its Turnstile site key (set by the worker). */
export const SITE_KEY_META = TURNSTILE_META;

/** Turnstile's script, asked to wait for explicit turnstile.render() calls. */
export const TURNSTILE_SCRIPT_URL = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js?render=explicit`;
