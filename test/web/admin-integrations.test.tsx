/**
 * The console's Integrations view (web/src/admin/sections/Integrations*.tsx, issue 25 §1) with the
 * console's API over a mocked fetch standing in for /api/admin/webhooks: the list, adding an
 * endpoint (the console's checks, and the server's refusal of the address at the URL field), the
 * secret shown once and gone after leaving, a test event's answer, rotation, disable and enable,
 * delete, the deliveries and the dead letters' Retry (one, all), and the missing WEBHOOK_SECRETS_KEY.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { apiError, jsonResponse } from "./helpers";
import { SECRET, calls, overrides, renderSection, user, nth, openEndpoint } from "./integrations-support";

describe("the console's integrations", () => {
  it("lists the endpoints: name, kind, address, events, state with the reason, waiting and dead", async () => {
    renderSection();
    const table = await screen.findByRole("table", { name: text.list.caption });
    const rows = within(table).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(within(nth(rows, 1)).getByText("https://crm.example.com/hooks/1")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText(text.kinds.standard)).toBeTruthy();
    expect(within(nth(rows, 1)).getByText("person.erased")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText(text.state.enabled)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.kinds.slack)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.state.disabled)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(/The receiver answered 410 Gone\./)).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.list.queue(3, 1))).toBeTruthy();
    expect(screen.getByText(text.list.loaded(2)).getAttribute("role")).toBe("status");
  });

  it("says the WEBHOOK_SECRETS_KEY setting is missing when the API answers webhooks_not_configured", async () => {
    overrides.set("GET /api/admin/webhooks", () => apiError(503, "webhooks_not_configured", "Integrations are not configured."));
    renderSection();
    expect((await screen.findByText(text.notConfigured)).getAttribute("role")).toBe("alert");
    expect(text.notConfigured).toContain("WEBHOOK_SECRETS_KEY");
  });

  it("adding checks the fields, shows the server's refusal of the address at the URL field, then adds it", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    expect(document.activeElement).toBe(screen.getByRole("heading", { name: text.form.addTitle }));
    // Six events, each with its line; Slack's note only for Slack.
    for (const type of Object.keys(text.events))
      expect(screen.getByRole("checkbox", { name: new RegExp(type.replace(".", "\\.")) })).toBeTruthy();
    expect(screen.queryByText(text.form.slackNote)).toBeNull();
    await u.click(screen.getByRole("button", { name: text.form.create }));
    const name = screen.getByRole("textbox", { name: text.form.name });
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(name);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(0);

    overrides.set("POST /api/admin/webhooks", () =>
      jsonResponse(400, { error: { code: "invalid_url", message: "The address points to a private network.", field: "url" } }),
    );
    await u.type(name, "CRM");
    const url = screen.getByRole("textbox", { name: text.form.url });
    await u.type(url, "https://10.0.0.7/hook");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    await waitFor(() => expect(url.getAttribute("aria-invalid")).toBe("true"));
    const describedBy = url.getAttribute("aria-describedby")?.split(" ") ?? [];
    const said = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(said).toContain("The address points to a private network.");
    expect(document.activeElement).toBe(url);
    expect(calls.at(-1)).toEqual({
      method: "POST",
      path: "/api/admin/webhooks",
      body: { name: "CRM", url: "https://10.0.0.7/hook", kind: "standard", events: ["waitlist.joined"] },
    });

    overrides.clear();
    await u.clear(url);
    await u.type(url, "https://crm.example.com/in");
    await u.click(screen.getByRole("checkbox", { name: /person\.erased/ }));
    await u.click(screen.getByRole("button", { name: text.form.create }));
    expect(await screen.findByRole("heading", { name: "CRM", level: 3 })).toBeTruthy();
    expect(calls.at(-2)?.body).toEqual({
      name: "CRM",
      url: "https://crm.example.com/in",
      kind: "standard",
      events: ["waitlist.joined", "person.erased"],
    });
  });

  it("the secret is shown once after adding, with its copy button and the receiver's hint, and is gone after leaving", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    await u.type(screen.getByRole("textbox", { name: text.form.name }), "CRM");
    await u.type(screen.getByRole("textbox", { name: text.form.url }), "https://crm.example.com/in");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    const field = (await screen.findByRole("textbox", { name: text.secret.label })) as HTMLInputElement;
    expect(field.value).toBe(SECRET);
    expect(field.readOnly).toBe(true);
    expect(screen.getByText(text.secret.once)).toBeTruthy();
    expect(screen.getByText(/standardwebhooks/)).toBeTruthy();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await u.click(screen.getByRole("button", { name: text.secret.copy }));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    await waitFor(() => expect(screen.getByText(text.secret.copied)).toBeTruthy());

    await u.click(screen.getByRole("button", { name: text.back }));
    await openEndpoint(u, "CRM");
    expect(screen.queryByRole("textbox", { name: text.secret.label })).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("a Slack endpoint: the note that its messages carry no personal data, and no secret", async () => {
    const u = user();
    renderSection();
    await u.click(await screen.findByRole("button", { name: text.add }));
    await u.click(screen.getByRole("radio", { name: text.kinds.slack }));
    expect(screen.getByText(text.form.slackNote)).toBeTruthy();
    await u.type(screen.getByRole("textbox", { name: text.form.name }), "Launch");
    await u.type(screen.getByRole("textbox", { name: text.form.url }), "https://hooks.slack.com/services/T1/B1/xyz");
    await u.click(screen.getByRole("button", { name: text.form.create }));
    expect(await screen.findByText(text.secret.slack)).toBeTruthy();
    expect(calls.at(-2)?.body).toMatchObject({ kind: "slack" });
  });
});
