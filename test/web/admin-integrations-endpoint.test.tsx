/**
 * The console's Integrations view, one endpoint's screen (issue 25 §1): a test event's answer,
 * rotation, disable and enable, edit, delete, the deliveries and the dead letters' Retry (one, all).
 * The stand-in API and fixtures: test/web/integrations-support.tsx.
 */
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { integrations as text } from "../../web/src/admin/integrations-content";
import { jsonResponse } from "./helpers";
import { NEW_SECRET, calls, overrides, renderSection, user, nth, openEndpoint } from "./integrations-support";

describe("the console's integrations: one endpoint", () => {
  it("Send a test event shows the receiver's status and the first bytes of its answer; a refusal is an alert", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.test }));
    await waitFor(() => expect(screen.getByText(text.actions.testOk(204, 42))).toBeTruthy());
    expect(screen.getByText("thanks, got it")).toBeTruthy();
    overrides.set("POST /api/admin/webhooks/1/test", () =>
      jsonResponse(200, { ok: false, status: 401, error: null, answer: "bad signature", took_ms: 9 }),
    );
    await u.click(screen.getByRole("button", { name: text.actions.test }));
    await waitFor(() => expect(screen.getByText(text.actions.testFailed(401, null, 9)).getAttribute("role")).toBe("alert"));
    expect(screen.getByText("bad signature")).toBeTruthy();
  });

  it("Rotate asks first, then shows the new secret once and until when the previous one signs", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.rotate }));
    expect(document.activeElement?.textContent).toBe(text.actions.confirmRotate);
    await u.click(screen.getByRole("button", { name: text.actions.keep }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: text.actions.rotate }));
    expect(calls.some((c) => c.path.endsWith("/rotate"))).toBe(false);
    await u.click(screen.getByRole("button", { name: text.actions.rotate }));
    await u.click(screen.getByRole("button", { name: text.actions.yesRotate }));
    const field = (await screen.findByRole("textbox", { name: text.secret.label })) as HTMLInputElement;
    expect(field.value).toBe(NEW_SECRET);
    expect(screen.getByText(text.state.rotation("2026-12-06T02:00:00.000Z"))).toBeTruthy();
    expect(screen.getByText(text.actions.rotated)).toBeTruthy();
  });

  it("Disable pauses the endpoint and says why; Enable turns it back on", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.disable }));
    await waitFor(() => expect(screen.getByText(text.actions.disabled)).toBeTruthy());
    expect(screen.getByText(/Disabled by operator@example\.com\./)).toBeTruthy();
    await u.click(screen.getByRole("button", { name: text.actions.enable }));
    await waitFor(() => expect(screen.getByText(text.actions.enabled)).toBeTruthy());
    expect(calls.filter((c) => c.method === "POST").map((c) => c.path)).toEqual([
      "/api/admin/webhooks/1/disable",
      "/api/admin/webhooks/1/enable",
    ]);
  });

  it("Edit changes the name, address and events (PATCH), focus back on Edit", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.edit }));
    const name = screen.getByRole("textbox", { name: text.form.name });
    await u.clear(name);
    await u.type(name, "CRM (prod)");
    await u.click(screen.getByRole("checkbox", { name: /contact\.received/ }));
    await u.click(screen.getByRole("button", { name: text.form.save }));
    expect(await screen.findByRole("heading", { name: "CRM (prod)", level: 3 })).toBeTruthy();
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({
      name: "CRM (prod)",
      url: "https://crm.example.com/hooks/1",
      events: ["waitlist.joined", "contact.received", "person.erased"],
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: text.actions.edit })));
  });

  it("Delete asks first, then deletes and goes back to the list, saying so", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    await u.click(screen.getByRole("button", { name: text.actions.delete }));
    expect(document.activeElement?.textContent).toBe(text.actions.confirmDelete("Endpoint 1"));
    await u.click(screen.getByRole("button", { name: text.actions.yesDelete }));
    await waitFor(() => expect(nth(screen.getAllByRole("status"), 0).textContent).toBe(text.actions.deleted("Endpoint 1")));
    const table = await screen.findByRole("table", { name: text.list.caption });
    expect(within(table).queryByText("Endpoint 1")).toBeNull();
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/admin/webhooks/1")).toBe(true);
  });

  it("shows the recent deliveries, and the dead letters' Retry (one, then all)", async () => {
    const u = user();
    renderSection();
    await openEndpoint(u, "Endpoint 1");
    const recent = await screen.findByRole("table", { name: text.deliveries.caption });
    const rows = within(recent).getAllByRole("row");
    expect(within(nth(rows, 1)).getByText("msg_evt11_1")).toBeTruthy();
    expect(within(nth(rows, 1)).getByText("200")).toBeTruthy();
    expect(within(nth(rows, 2)).getByText("503")).toBeTruthy();
    expect(within(nth(rows, 2)).getByText(text.deliveries.status.pending)).toBeTruthy();

    const deadTable = screen.getByRole("table", { name: text.dead.caption });
    expect(within(deadTable).getByText("Timed out after 15 s.")).toBeTruthy();
    await u.click(within(deadTable).getByRole("button", { name: text.dead.retryOne("waitlist.joined", "msg_evt7_1") }));
    await waitFor(() => expect(screen.getByText(text.dead.retried(1))).toBeTruthy());
    expect(calls.find((c) => c.path.endsWith("/dead-letters/retry"))?.body).toEqual({ ids: [7] });
    expect(within(screen.getByRole("table", { name: text.dead.caption })).queryByText("msg_evt7_1")).toBeNull();
    await u.click(screen.getByRole("button", { name: text.dead.retryAll }));
    await waitFor(() => expect(screen.getByText(text.dead.retried(1))).toBeTruthy());
    expect(calls.filter((c) => c.path.endsWith("/dead-letters/retry")).at(-1)?.body).toEqual({});
    await waitFor(() => expect(screen.queryByRole("table", { name: text.dead.caption })).toBeNull());
    expect(screen.getByText(text.dead.none)).toBeTruthy();
  });
});
