/**
 * The console's "Joins waiting for the database" (web/src/admin/sections/WaitingJoins.tsx,
 * issue 24 §3) with the console's API over a mocked fetch: the count and the oldest, the dead
 * joins, and "Retry" / "Retry all" posting to /api/admin/joins/retry.
 */
import type { JoinsReport } from "@shared/joins";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createAdminApi } from "../../web/src/admin/api";
import { ConsoleContext } from "../../web/src/admin/context";
import { joins as text } from "../../web/src/admin/joins-content";
import { WaitingJoins } from "../../web/src/admin/sections/WaitingJoins";
import { jsonResponse } from "./helpers";

const dead = (id: string, email: string) => ({
  id,
  kind: "join" as const,
  email,
  source: "hero",
  joined_at: "2026-12-04T10:00:00.000Z",
  died_at: "2026-12-05T10:00:00.000Z",
});

let report: JoinsReport;
let posted: { path: string; body: string | null }[];
/** Whether the audit trail records the retries (false: the database is down). */
let audited: boolean;

beforeEach(() => {
  posted = [];
  audited = true;
  report = {
    known: true,
    waiting: 3,
    oldest_at: "2026-12-04T09:00:00.000Z",
    oldest_age_seconds: 120,
    dead: 2,
    dead_joins: [
      dead("11111111-1111-4111-8111-111111111111", "ada@example.com"),
      dead("22222222-2222-4222-8222-222222222222", "grace@example.com"),
    ],
  };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    if (init?.method === "POST") {
      posted.push({ path: url.pathname, body: typeof init.body === "string" ? init.body : null });
      const ids = (JSON.parse(String(init.body)) as { ids?: string[] }).ids;
      const retried = ids ? ids.length : report.dead_joins.length;
      report = { ...report, dead_joins: ids ? report.dead_joins.filter(({ id }) => !ids.includes(id)) : [] };
      return jsonResponse(200, { retried, audited });
    }
    return jsonResponse(200, report);
  });
});

function renderSection() {
  const api = createAdminApi({ token: async () => "token", refreshedToken: async () => null });
  return render(
    <ConsoleContext.Provider value={{ api, report: (error) => String(error) }}>
      <WaitingJoins id="waiting-joins" />
    </ConsoleContext.Provider>,
  );
}

describe("the console's waiting joins", () => {
  it("says how many joins wait and since when, and lists the dead ones", async () => {
    renderSection();
    expect(await screen.findByText(/3 joins waiting, the oldest since/)).toBeTruthy();
    const table = screen.getByRole("table", { name: text.dead.caption });
    expect(within(table).getByText("ada@example.com")).toBeTruthy();
    expect(within(table).getByText("grace@example.com")).toBeTruthy();
  });

  it("Retry puts one dead join back, Retry all the rest, each announced", async () => {
    const user = userEvent.setup();
    renderSection();
    const table = await screen.findByRole("table", { name: text.dead.caption });
    await user.click(within(table).getByRole("button", { name: text.dead.retryOne("ada@example.com") }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(text.dead.retried(1)));
    expect(posted[0]).toEqual({ path: "/api/admin/joins/retry", body: JSON.stringify({ ids: ["11111111-1111-4111-8111-111111111111"] }) });
    await waitFor(() => expect(screen.queryByText("ada@example.com")).toBeNull());
    await user.click(screen.getByRole("button", { name: text.dead.retryAll }));
    await waitFor(() => expect(screen.getByText(text.dead.none)).toBeTruthy());
    expect(posted[1]).toEqual({ path: "/api/admin/joins/retry", body: "{}" });
  });

  it("a retry the audit trail could not record (the database down) is done, and the console says it is not in the trail", async () => {
    audited = false;
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole("button", { name: text.dead.retryAll }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe(`${text.dead.retried(2)} ${text.dead.notAudited}`));
  });

  it("says when nothing waits, and when the count cannot be read", async () => {
    report = { known: true, waiting: 0, oldest_at: null, oldest_age_seconds: null, dead: 0, dead_joins: [] };
    const { unmount } = renderSection();
    expect(await screen.findByText(text.none)).toBeTruthy();
    unmount();
    report = { ...report, known: false };
    renderSection();
    expect(await screen.findByText(text.unknown)).toBeTruthy();
  });
});
