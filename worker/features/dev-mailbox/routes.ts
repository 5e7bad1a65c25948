import { Hono } from "hono";
import { escapeHtml } from "../../platform/html";
import type { AppEnv } from "../../deps";

/** A message's own headers (a campaign's List-Unsubscribe pair), as the recipient's mail client would get them. */
function headerList(headers: Record<string, string> | null): string {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return "";
  const rows = entries.map(([name, value]) => `<dt>${escapeHtml(name)}:</dt><dd>${escapeHtml(value)}</dd>`).join("");
  return `\n  <dl class="headers" aria-label="Headers">${rows}</dl>`;
}

/**
 * GET /dev/mailbox: every e-mail the app "sent" through the dev mailbox, newest first, as a
 * page (or JSON with ?format=json or Accept: application/json), each with its own headers. It
 * holds sign-in codes, so it exists only when ENVIRONMENT is exactly "development"
 * (developmentOnly, worker/platform/http/json-app.ts), and is never cached.
 */
export const devMailboxRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { repo } = c.get("deps");
  const mails = await repo.devMail.list(100);
  const wantsJson = c.req.query("format") === "json" || (c.req.header("accept") ?? "").includes("application/json");
  if (wantsJson) {
    return c.json({
      messages: mails.map((mail) => ({
        id: mail.id,
        receivers: mail.receivers,
        title: mail.title,
        body_html: mail.bodyHtml,
        body_text: mail.bodyText,
        headers: mail.headers ?? {},
        created_at: mail.createdAt,
      })),
    });
  }
  const items = mails
    .map(
      (mail) => `<article>
  <h2>${escapeHtml(mail.title)}</h2>
  <p class="meta">To ${escapeHtml(mail.receivers.join(", "))} · ${escapeHtml(mail.createdAt)}</p>${headerList(mail.headers)}
  <iframe sandbox title="${escapeHtml(mail.title)}" srcdoc="${escapeHtml(mail.bodyHtml)}"></iframe>${
    mail.bodyText === null ? "" : `\n  <details><summary>Plain text</summary><pre>${escapeHtml(mail.bodyText)}</pre></details>`
  }
</article>`,
    )
    .join("\n");
  // The bodies are shown in sandboxed frames: they hold visitors' text and must not run scripts.
  c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}.meta{color:#555}
iframe{width:100%;height:42rem;border:1px solid #eee}pre{white-space:pre-wrap;overflow-wrap:anywhere}
dl.headers{display:grid;grid-template-columns:max-content 1fr;gap:.25rem .75rem;margin:0 0 1rem;font-size:.875rem}
dl.headers dt{font-weight:600}dl.headers dd{margin:0;overflow-wrap:anywhere;font-family:ui-monospace,monospace}
@media (max-width:36rem){dl.headers{grid-template-columns:1fr}dl.headers dd{margin-bottom:.5rem}}</style></head>
<body><h1>Dev mailbox</h1><p>${mails.length} message(s), newest first. Nothing here leaves this machine.</p>
${items || "<p>No e-mail yet.</p>"}
</body></html>`);
});
