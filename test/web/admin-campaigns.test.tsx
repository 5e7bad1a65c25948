/**
 * The console's Campaigns view (web/src/admin/sections/Campaigns*.tsx) against a stand-in for
 * auth-js and a mocked fetch: the list, the composer with its live (debounced) audience size,
 * the checks, saving, the preview frames, the test send, the notice of missing sender settings,
 * sending now and at a local time behind a confirmation that states the audience's size, the
 * polled progress (and its end), pause, resume and cancel, the report with its CSV, dead letters.
 */
import type { AdminPage, AdminStats, AdminWaitlistEntry } from "@shared/admin";
import {
  CAMPAIGN_POLL_MS,
  type CampaignAudience,
  type CampaignJson,
  type CampaignProgress,
  type DeadLetter,
  type WaveEntry,
  type WavePreview,
} from "@shared/campaigns";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdminApp } from "../../web/src/admin/AdminApp";
import { admin } from "../../web/src/admin/content";
import { apiError, jsonResponse } from "./helpers";

type Session = { access_token: string; user: { email: string } };

const auth = vi.hoisted(() => {
  const state: { session: Session | null } = { session: null };
  const client = {
    getSession: vi.fn(async () => ({ data: { session: state.session }, error: null })),
    refreshSession: vi.fn(async () => ({ data: { session: null, user: null }, error: { name: "AuthApiError", message: "No." } })),
    signOut: vi.fn(async () => ({ error: null })),
    onAuthStateChange: () => ({ data: { subscription: { unsubscribe: () => {} } } }),
  };
  return { client, state };
});

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: async () => auth.client,
  onAuthClientLoaded: () => () => {},
}));

const OPERATOR = "operator@example.com";
const TOKEN = "operator-access-token";
const text = admin.campaigns;

// ---------------------------------------------------------------------------------------------
// Data

function progress(
  overrides: Partial<Omit<CampaignProgress, "counts">> & { counts?: Partial<CampaignProgress["counts"]> } = {},
): CampaignProgress {
  const { counts, ...rest } = overrides;
  return {
    counts: { queued: 0, sending: 0, sent: 0, failed: 0, skipped: 0, ...counts },
    expanded: 0,
    expansion_done: false,
    rate_per_second: 0,
    seconds_left: null,
    dead_lettered: 0,
    target: null,
    unsent: counts ? (counts.queued ?? 0) + (counts.sending ?? 0) : 0,
    cancelled: 0,
    ...rest,
  };
}

function campaign(id: number, overrides: Partial<CampaignJson> = {}): CampaignJson {
  return {
    id,
    subject: `Campaign ${id}`,
    body: "Hello!\n\nWe are open: https://example.com/start",
    audience: { kind: "all", utm_source: null },
    status: "draft",
    audience_size: 1234,
    send_at: null,
    created_by: OPERATOR,
    created_at: "2026-02-01T09:00:00.000Z",
    updated_at: "2026-02-01T09:00:00.000Z",
    started_at: null,
    finished_at: null,
    progress: progress(),
    transport_warnings: [],
    missing_settings: [],
    ...overrides,
  };
}

const STATS: AdminStats = {
  funnel: {
    joined: 0,
    pending: 0,
    confirmed: 0,
    inboxes: 0,
    sharedInbox: 0,
    unsubscribed: 0,
    undeliverable: 0,
    reachable: 0,
    invited: 0,
    held: 0,
    waiting: 0,
  },
  waitlist: {
    total: 0,
    pending: 0,
    confirmed: 0,
    confirmationRate: 0,
    last24h: 0,
    last7d: 0,
    bySource: { top: [], none: 0, other: { values: 0, count: 0 } },
    byUtmSource: { top: [], none: 0, other: { values: 0, count: 0 } },
    byUtmMedium: { top: [], none: 0, other: { values: 0, count: 0 } },
    byUtmCampaign: { top: [], none: 0, other: { values: 0, count: 0 } },
    byReferrerHost: { top: [], none: 0, other: { values: 0, count: 0 } },
    byDay: [],
  },
  referrals: { confirmed: 0, viralCoefficient: 0, top: [], flagged: [], flagAt: 5 },
  submissions: { total: 0, byForm: { top: [], none: 0, other: { values: 0, count: 0 } } },
  notifications: { undelivered: 0, oldestUndeliveredAt: null },
  failedNotifications: { count: 0, nextAttemptAt: null },
  visitorMail: { budget: 5000, sentToday: 0, waiting: 0 },
  mailDeadLetters: 0,
  retention: {
    schedule: { unconfirmed_entries: 30, referral_networks: 30, contact_messages: 365, parental_requests: 7 },
    today: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
    lastDays: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
    lastDeletionDay: null,
  },
  ages: {
    byBand: { under_13: 0, "13_15": 0, "16_17": 0, "18_plus": 0, unknown: 0 },
    onBehalfOfChild: { total: 0, byBand: { under_13: 0, "13_15": 0, "16_17": 0, "18_plus": 0, unknown: 0 } },
  },
  parents: {
    pending: 0,
    oldestPendingAt: null,
    today: { agreed: 0, declined: 0, expired: 0 },
    lastDays: { agreed: 0, declined: 0, expired: 0 },
  },
};

const empty = <T,>(): AdminPage<T> => ({ items: [], next_cursor: null, total: 0 });

/** A confirmed waitlist entry, invited or not. */
function waitlistEntry(id: number, email: string, invited: Partial<AdminWaitlistEntry> = {}): AdminWaitlistEntry {
  return {
    id,
    email,
    source: "hero",
    created_at: "2026-01-30T10:00:00.000Z",
    updated_at: "2026-01-30T10:00:00.000Z",
    held_at: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    referrer_host: null,
    status: "confirmed",
    confirmed_at: "2026-01-30T10:05:00.000Z",
    place: id,
    referral_code: null,
    referred_by: null,
    referrals_confirmed: 0,
    invited_at: null,
    invited_campaign_id: null,
    age_band: "18_plus",
    country: "US",
    on_behalf_of_child: false,
    email_sent: true,
    email_sent_at: null,
    notify_attempts: 1,
    notify_last_error: null,
    notify_next_attempt_at: null,
    ...invited,
  };
}

// ---------------------------------------------------------------------------------------------
// The API stand-in: every request is recorded; answers come from `routes`, by "METHOD /path".

type Call = { method: string; path: string; body: unknown };
type Handler = (call: Call) => Response | Promise<Response>;

let calls: Call[] = [];
let routes: Record<string, Handler> = {};

const API = "/api/admin/campaigns";

beforeEach(() => {
  calls = [];
  auth.state.session = { access_token: TOKEN, user: { email: OPERATOR } };
  routes = {
    "GET /api/admin/stats": () => jsonResponse(200, STATS),
    "GET /api/admin/waitlist": () => jsonResponse(200, empty<AdminWaitlistEntry>()),
    "GET /api/admin/submissions": () => jsonResponse(200, empty()),
    [`GET ${API}`]: () => jsonResponse(200, { campaigns: [] }),
    [`POST ${API}/audience`]: ({ body }) => {
      const { audience } = body as { audience: CampaignAudience };
      return jsonResponse(200, { audience_size: audience.kind === "wave" ? Math.min(audience.size, 900) : 1234 });
    },
  };
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const raw = typeof init?.body === "string" ? init.body : null;
    const call = { method, path: url.pathname, body: raw ? JSON.parse(raw) : null };
    if (new Headers(init?.headers).get("Authorization") !== `Bearer ${TOKEN}`) throw new Error("no token");
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return apiError(404, "not_found", `No route for ${method} ${url.pathname}`);
    return handler(call);
  });
});

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);
const region = () => screen.getByRole("region", { name: text.title });

async function openConsole(user = userEvent.setup()) {
  render(<AdminApp />);
  await screen.findByRole("heading", { level: 1, name: admin.title });
  // The list has answered (its status no longer says it is loading).
  await waitFor(() => expect(region().querySelector("[role=status]")!.textContent).not.toBe(admin.loading));
  return user;
}

/** The console opened on one campaign's screen (GET …/:id answers `current()`). */
async function openCampaign(current: () => CampaignJson, user = userEvent.setup()) {
  routes[`GET ${API}`] = () => jsonResponse(200, { campaigns: [current()] });
  routes[`GET ${API}/${current().id}`] = () => jsonResponse(200, current());
  await openConsole(user);
  await user.click(within(region()).getByRole("button", { name: text.list.open(current().subject) }));
  return user;
}

async function newCampaign(user = userEvent.setup()) {
  await openConsole(user);
  await user.click(within(region()).getByRole("button", { name: text.newCampaign }));
  return user;
}

async function fillDraft(user: ReturnType<typeof userEvent.setup>, subject = "We're open", body = "Come in!\n\nhttps://example.com") {
  await user.type(screen.getByRole("textbox", { name: text.composer.subject }), subject);
  await user.type(screen.getByRole("textbox", { name: text.composer.body }), body.replaceAll("\n", "{Enter}"));
}

// ---------------------------------------------------------------------------------------------

describe("the waitlist's Invited column (issue 17)", () => {
  it("shows when an invite wave drew the entry and which campaign, and a dash while not invited", async () => {
    const entry = (id: number, email: string, invited: Partial<AdminWaitlistEntry>): AdminWaitlistEntry => ({
      id,
      email,
      source: "hero",
      created_at: "2026-01-30T10:00:00.000Z",
      updated_at: "2026-01-30T10:00:00.000Z",
      held_at: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer_host: null,
      status: "confirmed",
      confirmed_at: "2026-01-30T10:05:00.000Z",
      place: id,
      referral_code: null,
      referred_by: null,
      referrals_confirmed: 0,
      invited_at: null,
      invited_campaign_id: null,
      age_band: "18_plus",
      country: "US",
      on_behalf_of_child: false,
      email_sent: true,
      email_sent_at: null,
      notify_attempts: 1,
      notify_last_error: null,
      notify_next_attempt_at: null,
      ...invited,
    });
    routes["GET /api/admin/waitlist"] = () =>
      jsonResponse(200, {
        items: [
          entry(1, "ada@example.com", { invited_at: "2026-02-01T10:00:30.000Z", invited_campaign_id: 3 }),
          entry(2, "grace@example.com", {}),
        ],
        next_cursor: null,
        total: 2,
      });
    await openConsole();
    const table = await screen.findByRole("table", { name: admin.waitlist.caption });
    const column = within(table)
      .getAllByRole("columnheader")
      .findIndex((header) => header.textContent === admin.waitlist.columns.invited);
    expect(column).toBeGreaterThan(0);
    const cells = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.children[column]!.textContent);
    expect(cells).toEqual([`1 Feb 2026, 10:00 UTC${admin.waitlist.invitedBy(3)}`, `—${admin.none}`]);
  });
});

describe("the list of campaigns", () => {
  it("is a section of the console, linked from its navigation, listing subject, status, audience, sent of total and creation", async () => {
    routes[`GET ${API}`] = () =>
      jsonResponse(200, {
        campaigns: [
          campaign(2, {
            subject: "Wave two",
            status: "sending",
            audience: { kind: "wave", size: 500, utm_source: "newsletter" },
            audience_size: 500,
            progress: progress({ counts: { sent: 120, queued: 380 } }),
          }),
          campaign(1, { subject: "Hello", status: "scheduled", send_at: "2026-02-03T08:00:00.000Z" }),
        ],
      });
    await openConsole();
    const nav = screen.getByRole("navigation", { name: admin.nav.label });
    expect(within(nav).getByRole("link", { name: admin.nav.campaigns }).getAttribute("href")).toBe("#campaigns");
    expect(region().id).toBe("campaigns");

    const table = within(region()).getByRole("table", { name: text.list.caption });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      [
        "#2 Open the campaign “Wave two”Wave two",
        "Sending",
        "Invite wave of 500 from “newsletter”500 people",
        "120 / 500",
        "1 Feb 2026, 09:00 UTC",
      ],
      [
        "#1 Open the campaign “Hello”Hello",
        "ScheduledFor 3 Feb 2026, 08:00 UTC",
        "Everyone confirmed1,234 people",
        "0 / 1,234",
        "1 Feb 2026, 09:00 UTC",
      ],
    ]);
    expect(within(region()).getByRole("status").textContent).toBe(text.list.loaded(2));
  });

  it("says when there is none yet, and a failure with a way to try again", async () => {
    let fail = true;
    routes[`GET ${API}`] = () => (fail ? apiError(503, "unavailable", "Later.") : jsonResponse(200, { campaigns: [] }));
    const user = await openConsole();
    expect(within(region()).getByRole("alert").textContent).toBe(admin.errors.unavailable);
    fail = false;
    await user.click(within(region()).getByRole("button", { name: admin.tryAgain }));
    await within(region()).findByText(text.list.empty);
  });
});

describe("composing a campaign", () => {
  it("moves focus to the new screen, and counts the audience live (debounced) before anything is saved", async () => {
    const user = await newCampaign();
    const heading = within(region()).getByRole("heading", { level: 3, name: text.composer.newTitle });
    expect(document.activeElement).toBe(heading);
    // Everyone confirmed, at first.
    await within(region()).findByText(text.audience.size(1234));
    expect(screen.getByText(text.composer.bodyHint)).toBeTruthy();

    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    await user.type(screen.getByRole("textbox", { name: text.audience.waveSize }), "500");
    await user.type(screen.getByRole("textbox", { name: text.audience.utmSource }), "NewsLetter");
    await within(region()).findByText(text.audience.size(500));
    // One count for the typed values, none for each key on the way (5, 50, "n", "ne"...).
    const waves = callsTo("POST", `${API}/audience`)
      .map((call) => (call.body as { audience: CampaignAudience }).audience)
      .filter((audience) => audience.kind === "wave");
    expect(waves).toEqual([{ kind: "wave", size: 500, utm_source: "newsletter" }]);
    // Nothing was saved or sent.
    expect(calls.filter((call) => call.method !== "GET" && call.path !== `${API}/audience`)).toEqual([]);
  });

  it("a wave lists who it invites first, in its order, marking a flagged referrer and the friends it brought, and says what it skips (issue 22)", async () => {
    const first = (id: number, email: string, flagged: number | null, friendOfFlagged: boolean): WaveEntry => ({
      id,
      email,
      place: id,
      referral_code: `CODE${id}`,
      referred_by: friendOfFlagged ? "CODE1" : null,
      referrals_confirmed: flagged ?? 0,
      flagged_from_one_network: flagged,
      referred_by_flagged: friendOfFlagged,
    });
    const wave: WavePreview = {
      first: [
        first(1, "ring@example.com", 6, false),
        first(2, "early@example.com", null, false),
        first(3, "friend@example.com", null, true),
      ],
      flagged: 1,
      flagged_friends: 1,
      held: 2,
    };
    routes[`POST ${API}/audience`] = ({ body }) =>
      jsonResponse(
        200,
        (body as { audience: CampaignAudience }).audience.kind === "wave"
          ? { audience_size: 3, wave }
          : { audience_size: 1234, wave: null },
      );
    const user = await newCampaign();
    await within(region()).findByText(text.audience.size(1234));
    expect(within(region()).queryByRole("table", { name: text.audience.first.caption(3) })).toBeNull();
    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    await user.type(screen.getByRole("textbox", { name: text.audience.waveSize }), "3");
    const table = await within(region()).findByRole("table", { name: text.audience.first.caption(3) });
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["1", "ring@example.com", "6", text.audience.first.flaggedReferrer(6)],
      ["2", "early@example.com", "0", ""],
      ["3", "friend@example.com", "0", text.audience.first.flaggedFriend],
    ]);
    expect(within(region()).getByText(text.audience.first.flaggedInWave(1, 1))).toBeTruthy();
    expect(within(region()).getByText(text.audience.first.held(2))).toBeTruthy();
    expect(text.audience.first.held(2)).toBe("2 entries held out of waves are skipped.");
  });

  it("a wave of friends whose flagged referrer went in an earlier wave says so above its rows, counting the whole wave's (issue 22 review)", async () => {
    const friend = (id: number): WaveEntry => ({
      id,
      email: `kid${id}@mailnest.example`,
      place: 32 + id,
      referral_code: `KID${id}`,
      referred_by: "RING2345",
      referrals_confirmed: 0,
      flagged_from_one_network: null,
      referred_by_flagged: true,
    });
    // 20 rows shown, 26 such entries in the wave of 40: the summary counts the wave, not the rows.
    const wave: WavePreview = { first: Array.from({ length: 20 }, (_, i) => friend(i + 1)), flagged: 0, flagged_friends: 26, held: 0 };
    routes[`POST ${API}/audience`] = ({ body }) =>
      jsonResponse(
        200,
        (body as { audience: CampaignAudience }).audience.kind === "wave"
          ? { audience_size: 40, wave }
          : { audience_size: 1234, wave: null },
      );
    const user = await newCampaign();
    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    await user.type(screen.getByRole("textbox", { name: text.audience.waveSize }), "40");
    await within(region()).findByRole("table", { name: text.audience.first.caption(20) });
    const summary = within(region()).getByText(text.audience.first.flaggedInWave(0, 26));
    expect(summary.textContent).toBe(
      "No flagged referrer in this wave, but 26 entries that joined through one: see Referrals, and hold any out of waves in the Waitlist before sending.",
    );
    expect(summary.className).toBe("wave-preview__flagged");
    expect(within(region()).queryByText(/^No flagged referrer in this wave\.$/)).toBeNull();
    // Both counts, and neither.
    expect(text.audience.first.flaggedInWave(2, 14)).toBe(
      "2 flagged referrers in this wave, and 14 entries that joined through one: see Referrals, and hold any out of waves in the Waitlist before sending.",
    );
    expect(text.audience.first.flaggedInWave(0, 0)).toBe("No flagged referrer in this wave, and nobody who joined through one.");
  });

  it("an empty audience says there would be nothing to send (Send is inert, saying why); a wave size that is no number is not counted", async () => {
    routes[`POST ${API}/audience`] = () => jsonResponse(200, { audience_size: 0 });
    const user = await newCampaign();
    await within(region()).findByText(text.audience.sizeNone);
    // Nothing to send: Send stays focusable but inert, and says why.
    const send = within(region()).getByRole("button", { name: `${text.send.now}…` });
    await waitFor(() => expect(send.getAttribute("aria-disabled")).toBe("true"));
    expect(document.getElementById(send.getAttribute("aria-describedby")!)!.textContent).toBe(text.send.reasonEmpty);
    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    const size = screen.getByRole("textbox", { name: text.audience.waveSize });
    await user.type(size, "0");
    await user.tab();
    expect(size.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(text.audience.waveSizeInvalid(1_000_000))).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(callsTo("POST", `${API}/audience`).some((call) => (call.body as { audience: CampaignAudience }).audience.kind === "wave")).toBe(
      false,
    );
  });

  it("says how many of the audience joined before the age question, whom the rule sends no campaign until they answered it (issue 23)", async () => {
    routes[`POST ${API}/audience`] = (call) => {
      const { audience } = call.body as { audience: CampaignAudience };
      return jsonResponse(
        200,
        audience.kind === "wave"
          ? { audience_size: 40, wave: null, age_unknown: 40 }
          : { audience_size: 1234, wave: null, age_unknown: 12 },
      );
    };
    const user = await newCampaign();
    await within(region()).findByText(text.audience.size(1234));
    expect(within(region()).getByText(text.audience.ageUnknown(12, 1234))).toBeTruthy();
    expect(text.audience.ageUnknown(12, 1234)).toBe(
      "12 of them joined before we asked for a birth month and year, so we don't know whether any of them is a child. Our rule: no campaign e-mail to them until they have answered (they answer by joining again with the same address). Wait, or erase those entries (Erase a person), before sending.",
    );
    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    await user.type(screen.getByRole("textbox", { name: text.audience.waveSize }), "40");
    await within(region()).findByText(text.audience.ageUnknown(40, 40));
    expect(text.audience.ageUnknown(40, 40)).toMatch(/^All 40 joined before/);
  });

  it("says nothing about the age question when everyone in the audience answered it", async () => {
    routes[`POST ${API}/audience`] = () => jsonResponse(200, { audience_size: 1234, wave: null, age_unknown: 0 });
    await newCampaign();
    await within(region()).findByText(text.audience.size(1234));
    expect(region().querySelector(".audience__age-unknown")).toBeNull();
  });

  it("checks the fields before saving: the first wrong one takes focus and nothing is sent to the server", async () => {
    const user = await newCampaign();
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    const subject = screen.getByRole("textbox", { name: text.composer.subject });
    expect(subject.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(subject);
    expect(screen.getByText(text.composer.subjectRequired)).toBeTruthy();
    expect(screen.getByText(text.composer.bodyRequired)).toBeTruthy();
    expect(within(region()).getByText(text.composer.fixFirst)).toBeTruthy();
    expect(callsTo("POST", API)).toEqual([]);
  });

  it("counts the subject's length in characters as the server does: 150 emoji fit, 151 characters are refused", async () => {
    routes[`POST ${API}`] = ({ body }) => jsonResponse(201, campaign(8, body as object));
    const user = await newCampaign();
    const subject = screen.getByRole("textbox", { name: text.composer.subject });
    // The browser's maxlength would count UTF-16 units and stop at 75 emoji: the field has none.
    expect(subject.hasAttribute("maxlength")).toBe(false);
    fireEvent.change(subject, { target: { value: "a".repeat(151) } });
    fireEvent.change(screen.getByRole("textbox", { name: text.composer.body }), { target: { value: "Hello" } });
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    expect(screen.getByText(text.composer.subjectTooLong(150))).toBeTruthy();
    expect(callsTo("POST", API)).toEqual([]);
    fireEvent.change(subject, { target: { value: "🎉".repeat(150) } });
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    await waitFor(() => expect(callsTo("POST", API)).toHaveLength(1));
    expect((callsTo("POST", API)[0]!.body as { subject: string }).subject).toBe("🎉".repeat(150));
  });

  it("saves a draft (POST), then its changes (PATCH), and says so", async () => {
    let saved = campaign(7, { subject: "We're open", body: "Come in!\n\nhttps://example.com" });
    routes[`POST ${API}`] = ({ body }) => {
      saved = { ...saved, ...(body as object) };
      return jsonResponse(201, saved);
    };
    routes[`PATCH ${API}/7`] = ({ body }) => {
      saved = { ...saved, ...(body as object) };
      return jsonResponse(200, saved);
    };
    const user = await newCampaign();
    await fillDraft(user);
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    await within(region()).findByText(text.composer.saved);
    expect(callsTo("POST", API).map((call) => call.body)).toEqual([
      { subject: "We're open", body: "Come in!\n\nhttps://example.com", audience: { kind: "all", utm_source: null } },
    ]);
    expect(within(region()).getByRole("heading", { level: 3 }).textContent).toBe(
      `${text.number(7)} ${text.composer.editTitle("We're open")}`,
    );

    // Saving again without a change asks nothing; a change is a PATCH of the same draft.
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    expect(callsTo("POST", API)).toHaveLength(1);
    await user.type(screen.getByRole("textbox", { name: text.composer.subject }), "!");
    expect(screen.getByText(text.composer.unsaved)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: text.composer.save }));
    await waitFor(() => expect(callsTo("PATCH", `${API}/7`)).toHaveLength(1));
    expect((callsTo("PATCH", `${API}/7`)[0]!.body as { subject: string }).subject).toBe("We're open!");
    expect(callsTo("POST", API)).toHaveLength(1);
  });

  it("previews the saved e-mail in a 360 px and a 640 px frame of the signed preview page, with its text and headers", async () => {
    const draft = campaign(7);
    routes[`GET ${API}/7`] = () => jsonResponse(200, draft);
    routes[`POST ${API}/7/preview`] = () =>
      jsonResponse(200, {
        title: "Campaign 7",
        html: "<html></html>",
        text: "Hello!\n\nWe are open: https://example.com/start",
        headers: { "List-Unsubscribe": "<https://example.com/unsubscribe?token=x>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        preview_url: "/campaign-preview?token=signed",
      });
    const user = await openCampaign(() => draft);
    await user.click(within(region()).getByRole("button", { name: text.preview.show }));
    const heading = await within(region()).findByRole("heading", { level: 5, name: `${text.preview.title}: Campaign 7` });
    expect(document.activeElement).toBe(heading);
    const frames = [...region().querySelectorAll("iframe")];
    expect(frames.map((frame) => [frame.getAttribute("src"), frame.getAttribute("width"), frame.title])).toEqual([
      ["/campaign-preview?token=signed", "360", text.preview.frameTitle(360)],
      ["/campaign-preview?token=signed", "640", text.preview.frameTitle(640)],
    ]);
    expect(region().querySelector(".preview__text")!.textContent).toBe("Hello!\n\nWe are open: https://example.com/start");
    expect(within(region()).getByText("List-Unsubscribe-Post").nextElementSibling!.textContent).toBe("List-Unsubscribe=One-Click");
    // Nothing unsaved: the preview asked for no save.
    expect(callsTo("PATCH", `${API}/7`)).toEqual([]);
    expect(within(region()).getByRole("button", { name: text.preview.again })).toBeTruthy();
  });

  it("sends a test to the operator, saving the draft first", async () => {
    routes[`POST ${API}`] = ({ body }) => jsonResponse(201, campaign(9, body as Partial<CampaignJson>));
    routes[`POST ${API}/9/test`] = () => jsonResponse(200, { sent_to: OPERATOR });
    const user = await newCampaign();
    await fillDraft(user);
    await user.click(screen.getByRole("button", { name: text.test.send }));
    await within(region()).findByText(text.test.sent(OPERATOR));
    expect(calls.filter((call) => call.method === "POST" && call.path !== `${API}/audience`).map((call) => call.path)).toEqual([
      API,
      `${API}/9/test`,
    ]);
  });

  it("says why a test e-mail was not sent when the transport refused it (502 with the server's words)", async () => {
    routes[`POST ${API}`] = ({ body }) => jsonResponse(201, campaign(9, body as Partial<CampaignJson>));
    const refusal = "The test e-mail was not sent: provider answered HTTP 500.";
    routes[`POST ${API}/9/test`] = () => jsonResponse(502, { error: { code: "mail_not_sent", message: refusal } });
    const user = await newCampaign();
    await fillDraft(user);
    await user.click(screen.getByRole("button", { name: text.test.send }));
    expect(await within(region()).findByText(new RegExp(refusal.replace(/[.:]/g, "\\$&")))).toBeTruthy();
  });

  it("says what to set when the sender settings are missing, and Send stays inert saying why", async () => {
    const draft = campaign(3, {
      missing_settings: ["SENDER_NAME", "SENDER_POSTAL_ADDRESS"],
      transport_warnings: ["The e-mail provider cannot set the List-Unsubscribe headers: the link in the e-mail still works."],
    });
    const user = await openCampaign(() => draft);
    await within(region()).findByText("Set SENDER_NAME and SENDER_POSTAL_ADDRESS (wrangler.toml [vars]) before sending.");
    expect(within(region()).getByText(draft.transport_warnings[0]!)).toBeTruthy();
    const send = within(region()).getByRole("button", { name: `${text.send.now}…` });
    expect(send.getAttribute("aria-disabled")).toBe("true");
    expect(document.getElementById(send.getAttribute("aria-describedby")!)!.textContent).toBe(text.send.reasonNotConfigured);
    await user.click(send);
    expect(callsTo("POST", `${API}/3/send`)).toEqual([]);
    expect(screen.queryByText(text.send.confirmNow(1234))).toBeNull();
  });
});

describe("sending", () => {
  it("asks first, stating the audience's size counted again; Don't send sends nothing; Yes sends now", async () => {
    let current = campaign(4);
    routes[`POST ${API}/audience`] = () => jsonResponse(200, { audience_size: 1234 });
    routes[`POST ${API}/4/send`] = () => {
      current = campaign(4, {
        status: "sending",
        started_at: "2026-02-01T10:00:00.000Z",
        progress: progress({ counts: { queued: 1234 } }),
      });
      return jsonResponse(200, current);
    };
    const user = await openCampaign(() => current);
    const start = within(region()).getByRole("button", { name: `${text.send.now}…` });
    await user.click(start);
    const question = await within(region()).findByText("Send to 1,234 people?");
    expect(document.activeElement).toBe(question);
    await user.click(within(region()).getByRole("button", { name: text.send.no }));
    expect(screen.queryByText("Send to 1,234 people?")).toBeNull();
    expect(document.activeElement).toBe(within(region()).getByRole("button", { name: `${text.send.now}…` }));
    expect(callsTo("POST", `${API}/4/send`)).toEqual([]);

    await user.click(within(region()).getByRole("button", { name: `${text.send.now}…` }));
    await user.click(await within(region()).findByRole("button", { name: text.send.yes }));
    await within(region()).findByText(text.send.started);
    // The composer and its confirmation are gone: focus is on the screen's heading, above the progress.
    await waitFor(() => expect(document.activeElement).toBe(within(region()).getByRole("heading", { level: 3, name: "#4 Campaign 4" })));
    expect(callsTo("POST", `${API}/4/send`).map((call) => call.body)).toEqual([{ send_at: null }]);
    // The screen is the running campaign's now: its progress, and Pause.
    expect(within(region()).getByRole("heading", { level: 4, name: text.progress.title })).toBeTruthy();
    expect(within(region()).getByRole("button", { name: text.controls.pause })).toBeTruthy();
  });

  it("sends at a time picked in the operator's own time zone, as ISO UTC; a time past is refused", async () => {
    const current = campaign(5);
    routes[`POST ${API}/5/send`] = ({ body }) =>
      jsonResponse(200, campaign(5, { status: "scheduled", send_at: (body as { send_at: string }).send_at }));
    const user = await openCampaign(() => current);
    await user.click(within(region()).getByRole("radio", { name: text.send.at }));
    const time = within(region()).getByLabelText(text.send.atLabel) as HTMLInputElement;

    await user.type(time, "2020-01-01T10:00");
    await user.click(within(region()).getByRole("button", { name: `${text.send.schedule}…` }));
    expect(within(region()).getByText(text.send.atPast)).toBeTruthy();
    expect(time.getAttribute("aria-invalid")).toBe("true");

    const year = new Date().getFullYear() + 1;
    await user.clear(time);
    await user.type(time, `${year}-03-01T09:30`);
    await user.click(within(region()).getByRole("button", { name: `${text.send.schedule}…` }));
    const local = new Date(year, 2, 1, 9, 30);
    const question = await within(region()).findByText(/^Send to 1,234 people at /);
    expect(question.textContent).toContain(`${local.toISOString().slice(11, 16)} UTC`);
    await user.click(within(region()).getByRole("button", { name: text.send.yesSchedule }));
    await waitFor(() => expect(callsTo("POST", `${API}/5/send`).map((call) => call.body)).toEqual([{ send_at: local.toISOString() }]));
  });

  it("shows the server's words when it refuses (409 sender_not_configured)", async () => {
    const current = campaign(6);
    routes[`POST ${API}/6/send`] = () =>
      apiError(409, "sender_not_configured", "Set SENDER_NAME and SENDER_POSTAL_ADDRESS before sending a campaign.");
    const user = await openCampaign(() => current);
    await user.click(within(region()).getByRole("button", { name: `${text.send.now}…` }));
    await user.click(await within(region()).findByRole("button", { name: text.send.yes }));
    await within(region()).findByText(
      `${admin.errors.conflict} ${admin.errors.serverSaid("Set SENDER_NAME and SENDER_POSTAL_ADDRESS before sending a campaign.")}`,
    );
  });
});

describe("while it sends, and after", () => {
  it(`reads the progress every ${CAMPAIGN_POLL_MS} ms in place (counts, rate, time left, bar), says each tenth, and stops when sent`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const reads = [
      // Just started: no recipient row yet, the audience confirmed at the start is known.
      campaign(8, { status: "sending", audience_size: 0, progress: progress({ expanded: 0, target: 1000, unsent: 1000 }) }),
      campaign(8, {
        status: "sending",
        audience_size: 1000,
        progress: progress({
          counts: { queued: 600, sending: 50, sent: 300, failed: 10, skipped: 40 },
          expanded: 1000,
          expansion_done: true,
          rate_per_second: 12.5,
          seconds_left: 52,
        }),
      }),
      campaign(8, {
        status: "sent",
        audience_size: 1000,
        started_at: "2026-02-01T10:00:00.000Z",
        finished_at: "2026-02-01T10:02:00.000Z",
        progress: progress({ counts: { sent: 940, failed: 10, skipped: 50 }, expanded: 1000, expansion_done: true }),
      }),
    ];
    let index = 0;
    await openCampaign(() => reads[Math.min(index, reads.length - 1)]!, user);
    const figure = (label: string) => within(region()).getByText(label, { selector: "dt" }).nextElementSibling!.textContent;
    await within(region()).findByRole("heading", { level: 4, name: text.progress.title });
    // No row yet: "not yet sent" is the audience confirmed at the start, never "0 of 0".
    expect(figure(text.progress.queued)).toBe("1,000");
    expect(figure(text.progress.rate)).toBe(text.progress.noRate);
    const bar = () => within(region()).getByRole("progressbar", { name: text.progress.bar }) as HTMLProgressElement;
    expect(bar().max).toBe(1000);
    expect(bar().value).toBe(0);
    expect(within(region()).getByText("Getting ready to send to 1,000 people…", { selector: ".progress__summary" })).toBeTruthy();
    expect(within(region()).getByText(text.details.sizeSoFar(1000))).toBeTruthy();
    expect(region().textContent).not.toMatch(/\b0 of 0\b/);

    const reads8 = () => callsTo("GET", `${API}/8`).length;
    const before = reads8();
    index = 1;
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    await waitFor(() => expect(figure(text.progress.sent)).toBe("300"));
    expect(reads8()).toBe(before + 1);
    expect(figure(text.progress.queued)).toBe("650");
    expect(figure(text.progress.failed)).toBe("10");
    expect(figure(text.progress.skipped)).toBe("40");
    expect(figure(text.progress.rate)).toBe("12.5 a second");
    expect(figure(text.progress.left)).toBe("Less than a minute");
    expect(bar().value).toBe(350);
    expect(bar().max).toBe(1000);
    expect(within(region()).getByText("350 of 1,000 done (35%).")).toBeTruthy();
    // The live region speaks at a new tenth, not at every read.
    expect(screen.getByText("Sending: 350 of 1,000 done.").getAttribute("role")).toBe("status");

    index = 2;
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    const report = await within(region()).findByRole("heading", { level: 4, name: text.report.title });
    expect(report).toBeTruthy();
    expect(within(region()).getByText(text.statusChanged("Sent"))).toBeTruthy();
    expect(within(region()).getByText("1,000 of 1,000 done (100%).")).toBeTruthy();
    expect(figure(text.progress.sent)).toBe("940");
    expect(within(region()).queryByRole("button", { name: text.controls.pause })).toBeNull();
    // Done: no more reads, however long the screen stays open.
    const done = reads8();
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS * 5));
    expect(reads8()).toBe(done);
  });

  it("stops reading when the operator leaves the campaign's screen", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const running = campaign(10, { status: "sending", progress: progress({ counts: { queued: 1234 } }) });
    await openCampaign(() => running, user);
    await within(region()).findByRole("heading", { level: 4, name: text.progress.title });
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    const reads = callsTo("GET", `${API}/10`).length;
    expect(reads).toBeGreaterThanOrEqual(2);
    await user.click(within(region()).getByRole("button", { name: text.back }));
    expect(document.activeElement).toBe(within(region()).getByRole("heading", { level: 3, name: text.list.title }));
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS * 3));
    expect(callsTo("GET", `${API}/10`)).toHaveLength(reads);
  });

  it("pauses, resumes, and cancels only after asking", async () => {
    let current = campaign(11, {
      status: "sending",
      audience: { kind: "wave", size: 500 },
      audience_size: 500,
      progress: progress({ counts: { sent: 100, queued: 400 }, expansion_done: true }),
    });
    const to = (status: CampaignJson["status"]) => () => {
      current = { ...current, status };
      return jsonResponse(200, current);
    };
    routes[`POST ${API}/11/pause`] = to("paused");
    routes[`POST ${API}/11/resume`] = to("sending");
    routes[`POST ${API}/11/cancel`] = to("cancelled");
    const user = await openCampaign(() => current);
    const pause = await within(region()).findByRole("button", { name: text.controls.pause });
    await user.click(pause);
    await within(region()).findByText(text.progress.pausedNote);
    // Pause turned into Resume in place: the same button, still focused.
    const resume = within(region()).getByRole("button", { name: text.controls.resume });
    expect(resume).toBe(pause);
    expect(document.activeElement).toBe(resume);
    await user.click(resume);
    await within(region()).findByRole("button", { name: text.controls.pause });

    await user.click(within(region()).getByRole("button", { name: text.controls.cancel }));
    const question = within(region()).getByText(text.controls.confirmCancel);
    expect(document.activeElement).toBe(question);
    expect(within(region()).getByText(text.controls.confirmCancelNote(400, true))).toBeTruthy();
    await user.click(within(region()).getByRole("button", { name: text.controls.noCancel }));
    expect(document.activeElement).toBe(within(region()).getByRole("button", { name: text.controls.cancel }));
    expect(callsTo("POST", `${API}/11/cancel`)).toEqual([]);
    await user.click(within(region()).getByRole("button", { name: text.controls.cancel }));
    await user.click(within(region()).getByRole("button", { name: text.controls.yesCancel }));
    // The controls are gone with the cancel: focus goes to the report's heading that replaced them.
    const reportHeading = await within(region()).findByRole("heading", { level: 4, name: text.report.title });
    await waitFor(() => expect(document.activeElement).toBe(reportHeading));
    expect(calls.filter((call) => call.method === "POST").map((call) => call.path)).toEqual([
      `${API}/11/pause`,
      `${API}/11/resume`,
      `${API}/11/cancel`,
    ]);
  });

  it("the report downloads the recipients' CSV with the token", async () => {
    const sent = campaign(12, { status: "sent", progress: progress({ counts: { sent: 1200, skipped: 34 }, expansion_done: true }) });
    routes[`GET ${API}/12/recipients.csv`] = () =>
      new Response("email,place,status\n", {
        status: 200,
        headers: { "Content-Type": "text/csv", "Content-Disposition": 'attachment; filename="campaign-12-recipients.csv"' },
      });
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => "blob:campaign");
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const user = await openCampaign(() => sent);
    await user.click(await within(region()).findByRole("button", { name: text.report.download }));
    await within(region()).findByText(admin.table.downloaded("campaign-12-recipients.csv"));
    expect(saved).toEqual(["campaign-12-recipients.csv"]);
  });

  it("lists dead letters, and Retry puts one (or all) back", async () => {
    let current = campaign(13, { status: "sent", progress: progress({ counts: { sent: 1232, failed: 2 }, dead_lettered: 2 }) });
    const letters: DeadLetter[] = [
      {
        recipient_id: 501,
        email: "ada@example.com",
        attempts: 6,
        last_error: "provider answered 503",
        dead_lettered_at: "2026-02-01T10:05:00.000Z",
      },
      { recipient_id: 502, email: null, attempts: 6, last_error: null, dead_lettered_at: "2026-02-01T10:06:00.000Z" },
    ];
    routes[`GET ${API}/13/dead-letters`] = () => jsonResponse(200, { dead_letters: letters });
    routes[`POST ${API}/13/dead-letters/retry`] = () => {
      current = { ...current, status: "sending" };
      return jsonResponse(200, current);
    };
    const user = await openCampaign(() => current);
    const table = await within(region()).findByRole("table", { name: text.deadLetters.caption });
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((cell) => cell.textContent),
    ).toEqual(["ada@example.com", text.deadLetters.erased]);
    await user.click(within(table).getByRole("button", { name: text.deadLetters.retryOne("ada@example.com") }));
    await within(region()).findByText(text.deadLetters.retried(1));
    await user.click(within(region()).getByRole("button", { name: text.deadLetters.retryAll }));
    await waitFor(() => expect(callsTo("POST", `${API}/13/dead-letters/retry`)).toHaveLength(2));
    expect(callsTo("POST", `${API}/13/dead-letters/retry`).map((call) => call.body)).toEqual([{ recipient_ids: [501] }, {}]);
  });
});

// ---------------------------------------------------------------------------------------------
// Review 17R-ui: the numbers while a campaign starts and after a cancel, its number, focus, words.

describe("the numbers from the start, and after a cancel (review 17R-ui)", () => {
  const figureIn = (label: string) => within(region()).getAllByText(label, { selector: "dt" }).at(-1)!.nextElementSibling!.textContent;

  it("just after Yes, send: the 20 confirmed people, never 0 of 0; paused says preparing is paused too; Cancel counts the 20", async () => {
    let current = campaign(20, {
      status: "sending",
      audience: { kind: "wave", size: 20, utm_source: null },
      audience_size: 0,
      progress: progress({ expanded: 0, target: 20, unsent: 20 }),
    });
    routes[`POST ${API}/20/pause`] = () => {
      current = { ...current, status: "paused" };
      return jsonResponse(200, current);
    };
    const user = await openCampaign(() => current);
    await within(region()).findByRole("heading", { level: 4, name: text.progress.title });
    expect(figureIn(text.progress.queued)).toBe("20");
    expect(region().querySelector(".progress__summary")!.textContent).toBe("Getting ready to send to 20 people…");
    expect(figureIn(text.details.size)).toBe("20 (the list is still being prepared)");
    // The phone's first screen: the live line under the title, with its own Pause.
    expect(region().querySelector(".campaign__live")!.textContent).toBe("Getting ready to send to 20 people… · Pause sending");
    expect(region().textContent).not.toMatch(/\b0 of 0\b|0 so far/);

    await user.click(within(region()).getByRole("button", { name: "Pause sending" }));
    await within(region()).findByText(
      "Paused while getting ready to send to 20 people: preparing the list is paused too, and nothing is sent until you resume.",
    );
    await user.click(within(region()).getByRole("button", { name: text.controls.cancel }));
    expect(
      within(region()).getByText(
        "The 20 people not yet sent to will not get it, and they stay uninvited, so the next wave includes them. This cannot be undone.",
      ),
    ).toBeTruthy();
  });

  it("a cancelled wave's report: Cancelled at …, X sent, Y not sent (back in line), apart from Skipped; the list likewise", async () => {
    const cancelled = campaign(21, {
      subject: "Wave three",
      status: "cancelled",
      audience: { kind: "wave", size: 20, utm_source: null },
      audience_size: 8,
      started_at: "2026-02-01T10:00:00.000Z",
      finished_at: "2026-02-01T10:13:00.000Z",
      // 8 rows: 3 sent, 1 unsubscribed before, 4 cancelled; 12 never prepared (not rows).
      progress: progress({ counts: { sent: 3, skipped: 5 }, expanded: 8, expansion_done: false, target: 20, unsent: 0, cancelled: 16 }),
    });
    const user = await openCampaign(() => cancelled);
    const table = within(region()).queryByRole("table", { name: text.list.caption });
    expect(table).toBeNull();
    await within(region()).findByRole("heading", { level: 4, name: text.report.title });
    expect(
      within(region()).getByText("Cancelled at 1 Feb 2026, 10:13 UTC: 3 sent, 16 not sent (back in line for the next wave)."),
    ).toBeTruthy();
    expect(figureIn(text.report.audience)).toBe("20");
    expect(figureIn(text.progress.sent)).toBe("3");
    expect(figureIn(text.progress.skipped)).toBe("1");
    expect(figureIn("Not sent (cancelled)")).toBe("16");
    expect(figureIn("Cancelled")).toBe("1 Feb 2026, 10:13 UTC");
    expect(within(region()).queryByText(text.report.finished, { selector: "dt" })).toBeNull();
    expect(region().textContent).not.toMatch(/done \(100%\)/);

    await user.click(within(region()).getByRole("button", { name: text.back }));
    const row = within(await within(region()).findByRole("table", { name: text.list.caption })).getAllByRole("row")[1]!;
    expect([...row.children].map((cell) => cell.textContent)).toContain("3 / 2016 not sent (cancelled)");
  });

  it("cancelled before any row: 0 sent, all not sent, Skipped 0", async () => {
    const cancelled = campaign(22, {
      status: "cancelled",
      audience: { kind: "all", utm_source: null },
      audience_size: 0,
      finished_at: "2026-02-01T10:13:00.000Z",
      progress: progress({ expanded: 0, target: 20, cancelled: 20 }),
    });
    await openCampaign(() => cancelled);
    await within(region()).findByText("Cancelled at 1 Feb 2026, 10:13 UTC: 0 sent, 20 not sent.");
    expect(figureIn(text.progress.skipped)).toBe("0");
    expect(figureIn("Not sent (cancelled)")).toBe("20");
  });

  it("when Sending turns into Sent, focus left on <body> goes to the report's heading; focus elsewhere stays", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const sending = campaign(23, {
      status: "sending",
      audience_size: 5,
      progress: progress({ counts: { queued: 5 }, expanded: 5, expansion_done: true }),
    });
    const sent = { ...sending, status: "sent" as const, progress: progress({ counts: { sent: 5 }, expanded: 5, expansion_done: true }) };
    let current = sending;
    await openCampaign(() => current, user);
    await within(region()).findByRole("heading", { level: 4, name: text.progress.title });
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    current = sent;
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    const report = await within(region()).findByRole("heading", { level: 4, name: text.report.title });
    await waitFor(() => expect(document.activeElement).toBe(report));
  });

  it("focus outside the progress (the Back button) stays where it is when the campaign ends", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const sending = campaign(24, {
      status: "sending",
      audience_size: 5,
      progress: progress({ counts: { queued: 5 }, expanded: 5, expansion_done: true }),
    });
    let current = sending;
    await openCampaign(() => current, user);
    await within(region()).findByRole("heading", { level: 4, name: text.progress.title });
    const back = within(region()).getByRole("button", { name: text.back });
    back.focus();
    current = { ...sending, status: "sent", progress: progress({ counts: { sent: 5 }, expanded: 5, expansion_done: true }) };
    await act(() => vi.advanceTimersByTimeAsync(CAMPAIGN_POLL_MS));
    await within(region()).findByRole("heading", { level: 4, name: text.report.title });
    expect(document.activeElement).toBe(back);
  });
});

describe("numbers, names and words (review 17R-ui)", () => {
  it("the list and the screen show each campaign's number", async () => {
    const current = campaign(3, {
      subject: "Wave one",
      status: "sent",
      progress: progress({ counts: { sent: 20 }, expanded: 20, expansion_done: true }),
      audience_size: 20,
    });
    await openCampaign(() => current);
    expect(within(region()).getByRole("heading", { level: 3 }).textContent).toBe("#3 Wave one");
  });

  it("the waitlist's Invited column names the campaign by number and subject, and opens it", async () => {
    const wave = campaign(3, {
      subject: "You're in: Homework Helper opens its doors to the first wave today",
      status: "sent",
      audience_size: 20,
      progress: progress({ counts: { sent: 20 }, expanded: 20, expansion_done: true }),
    });
    routes[`GET ${API}`] = () => jsonResponse(200, { campaigns: [wave] });
    routes[`GET ${API}/3`] = () => jsonResponse(200, wave);
    routes["GET /api/admin/waitlist"] = () =>
      jsonResponse(200, {
        items: [waitlistEntry(1, "ada@example.com", { invited_at: "2026-02-01T10:00:30.000Z", invited_campaign_id: 3 })],
        next_cursor: null,
        total: 1,
      });
    const user = await openConsole();
    const table = await screen.findByRole("table", { name: admin.waitlist.caption });
    const open = await within(table).findByRole("button", { name: admin.waitlist.openInvitedBy(3, wave.subject) });
    expect(open.textContent).toBe("By #3 “You're in: Homework Helper…”");
    await user.click(open);
    const heading = await within(region()).findByRole("heading", { level: 3, name: `#3 ${wave.subject}` });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it("the waitlist's table says it scrolls sideways whenever it is wider than its box", async () => {
    routes["GET /api/admin/waitlist"] = () =>
      jsonResponse(200, {
        items: [waitlistEntry(1, "ada@example.com")],
        next_cursor: null,
        total: 1,
      });
    const widths = vi.spyOn(HTMLElement.prototype, "scrollWidth", "get").mockReturnValue(1400);
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1200);
    await openConsole();
    const box = await screen.findByRole("region", { name: admin.waitlist.caption });
    expect(box.className).toContain("table-scroll--overflow");
    expect(document.getElementById("waitlist-hint")!.className).toBe("scroll-hint scroll-hint--shown");
    widths.mockRestore();
  });

  it("says it once when there are no campaigns; the composer's words", async () => {
    const user = await openConsole();
    expect(region().textContent!.match(/No campaigns yet/g)).toHaveLength(1);
    await user.click(within(region()).getByRole("button", { name: text.newCampaign }));
    expect(screen.getByText("Leave empty for everyone. Any case: matched as stored (lower case), e.g. newsletter.")).toBeTruthy();
    await user.click(screen.getByRole("radio", { name: text.audience.wave }));
    await within(region()).findByText("Enter how many people to see the audience size.");
    await user.click(within(region()).getByRole("button", { name: `${text.send.now}…` }));
    expect(within(region()).getByText("Please correct the marked fields.")).toBeTruthy();
  });

  it("the preview frames are tall enough for the whole e-mail, and say a longer one scrolls inside", async () => {
    routes[`POST ${API}/7/preview`] = () =>
      jsonResponse(200, { title: "Campaign 7", html: "", text: "", headers: {}, preview_url: "/campaign-preview?token=signed" });
    const user = await openCampaign(() => campaign(7));
    await user.click(within(region()).getByRole("button", { name: text.preview.show }));
    await within(region()).findByRole("heading", { level: 5, name: `${text.preview.title}: Campaign 7` });
    const heights = [...region().querySelectorAll("iframe")].map((frame) => Number(frame.getAttribute("height")));
    expect(heights[0]).toBeGreaterThanOrEqual(1100);
    expect(heights[1]).toBeGreaterThanOrEqual(900);
    expect(within(region()).getByText(text.preview.scrollInside)).toBeTruthy();
  });
});
