/**
 * Stand-ins for Cloudflare Turnstile's two ends, for browser tests on a machine without network:
 * its siteverify API (a local HTTP server the worker is pointed at with TURNSTILE_VERIFY_URL),
 * and its browser script (served by Playwright in place of challenges.cloudflare.com's api.js).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HOST } from "../support/dev-server.ts";

/** Tokens the siteverify stand-in accepts start with this; any other token is refused. */
export const PASSING_TOKEN_PREFIX = "pass";

/** One call the worker made to siteverify (its form fields). */
export type SiteverifyCall = { secret: string | null; response: string | null; remoteip: string | null };

export type SiteverifyStandIn = {
  /** What the worker sets as TURNSTILE_VERIFY_URL. */
  url: string;
  /** Every call so far, oldest first. */
  calls: SiteverifyCall[];
  /** Stops listening and drops open connections; resolves within a second either way. */
  close: () => Promise<void>;
};

const CLOSE_TIMEOUT_MS = 1_000;
const MAX_BODY_BYTES = 16 * 1024;

/**
 * Starts siteverify's stand-in on 127.0.0.1 (a free port): POST /siteverify with Cloudflare's
 * form-encoded fields answers {success:true} for a token starting with PASSING_TOKEN_PREFIX and
 * {success:false, "error-codes":["invalid-input-response"]} for any other, as Cloudflare does.
 */
export async function startSiteverify(): Promise<SiteverifyStandIn> {
  const calls: SiteverifyCall[] = [];
  const server = createServer((request, response) => {
    void answer(request, response, calls);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeAllConnections();
    });
    return closed;
  };
  return { url: `http://${HOST}:${port}/siteverify`, calls, close };
}

async function answer(request: IncomingMessage, response: ServerResponse, calls: SiteverifyCall[]): Promise<void> {
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify(body));
  };
  if (request.method !== "POST" || request.url !== "/siteverify") return reply(404, { success: false, "error-codes": ["not-found"] });
  let body = "";
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY_BYTES) return reply(413, { success: false, "error-codes": ["bad-request"] });
  }
  const form = new URLSearchParams(body);
  const call = { secret: form.get("secret"), response: form.get("response"), remoteip: form.get("remoteip") };
  calls.push(call);
  if (call.response?.startsWith(`${PASSING_TOKEN_PREFIX}-`)) {
    return reply(200, { success: true, "error-codes": [], challenge_ts: new Date().toISOString(), hostname: "localhost" });
  }
  return reply(200, { success: false, "error-codes": ["invalid-input-response"] });
}

/**
 * The script Playwright serves in place of Turnstile's api.js: a window.turnstile whose widgets
 * issue a token shortly after render() and again after every reset(), as the real one does for
 * a visitor it lets through. Tokens are `${tokenPrefix}-${run}-${n}`, unique across tests.
 * What the page asked of it is kept in window.__turnstile for the test to read.
 */
export function fakeTurnstileScript(tokenPrefix: string): string {
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return `(() => {
  const log = { renders: [], resets: [], removes: [] };
  const widgets = new Map();
  let issued = 0;
  const issue = (id) => setTimeout(() => {
    const widget = widgets.get(id);
    if (widget) widget.callback(${JSON.stringify(`${tokenPrefix}-${run}-`)} + ++issued);
  }, 50);
  window.__turnstile = log;
  window.turnstile = {
    render(container, options) {
      const id = "fake-widget-" + (widgets.size + 1);
      widgets.set(id, options);
      log.renders.push({
        id,
        form: container.closest("form")?.getAttribute("aria-label") ?? null,
        options: Object.fromEntries(Object.entries(options).map(([key, value]) => [key, typeof value === "function" ? "function" : value])),
      });
      issue(id);
      return id;
    },
    reset(id) {
      log.resets.push(id);
      issue(id);
    },
    remove(id) {
      log.removes.push(id);
      widgets.delete(id);
    },
  };
})();`;
}
