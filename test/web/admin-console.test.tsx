/**
 * The operator console (web/src/admin) against a stand-in for auth-js and a mocked fetch: the
 * views (checking, signed out, session ended, not authorised, could not start, the console),
 * the figures, chart and breakdowns, search and keyset paging, "Retry now", the CSV downloads,
 * erasure with its typed confirmation, and the words shown for each failure.
 */
import type {
  AdminListedEntry,
  AdminPage,
  AdminStats,
  AdminSubmission,
  Breakdown,
  EntryVoided,
  PersonRecord,
  ReferralClusters,
} from "@shared/admin";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdminApp } from "../../web/src/admin/AdminApp";
import { admin } from "../../web/src/admin/content";
import { LOGIN_URL } from "../../web/src/admin/session";
import { apiError, deferred, jsonResponse } from "./helpers";

type Session = { access_token: string; user: { email: string } };
type Listener = (event: string, session: Session | null) => void;

/** auth-js as the console uses it: the stored session, a refresh, sign-out, and its events. */
const auth = vi.hoisted(() => {
  const listeners = new Set<Listener>();
  const state: { session: Session | null; refreshed: Session | null } = { session: null, refreshed: null };
  const emit = (event: string, session: Session | null) => {
    for (const listener of [...listeners]) listener(event, session);
  };
  const client = {
    getSession: vi.fn(async () => ({ data: { session: state.session }, error: null })),
    refreshSession: vi.fn(async () => {
      state.session = state.refreshed;
      return state.refreshed
        ? { data: { session: state.refreshed, user: state.refreshed.user }, error: null }
        : { data: { session: null, user: null }, error: { name: "AuthApiError", message: "Invalid Refresh Token" } };
    }),
    signOut: vi.fn(async (_options: { scope: string }) => {
      state.session = null;
      emit("SIGNED_OUT", null);
      return { error: null };
    }),
    onAuthStateChange(listener: Listener) {
      listeners.add(listener);
      return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
    },
  };
  return { client, state, listeners, emit };
});

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: async () => auth.client,
  onAuthClientLoaded: () => () => {},
}));

const OPERATOR = "operator@example.com";
const TOKEN = "operator-access-token";
const session = (email = OPERATOR, token = TOKEN): Session => ({ access_token: token, user: { email } });

// ---------------------------------------------------------------------------------------------
// Data

function days(counts: number[]): AdminStats["waitlist"]["byDay"] {
  const start = Date.UTC(2026, 0, 1);
  return counts.map((count, index) => ({ date: new Date(start + index * 86_400_000).toISOString().slice(0, 10), count }));
}

/** A breakdown as the API gives it: its top values (most first), the entries without one, the rest. */
function breakdown(top: Record<string, number>, none = 0, other = { values: 0, count: 0 }): Breakdown {
  return { top: Object.entries(top).map(([value, count]) => ({ value, count })), none, other };
}

/** A flagged referrer's referrals as a school's: one big network, spread over days, varied inboxes (issue 22). */
const SCHOOL: ReferralClusters = {
  total: 44,
  byNetwork: [12, 3],
  withinHour: 4,
  withinDay: 9,
  spanHours: 130,
  domains: 3,
  lookAlike: 2,
  reading: "group",
};

function stats(
  overrides: {
    total?: number;
    undelivered?: number;
    failed?: number;
    referrals?: Partial<AdminStats["referrals"]>;
    visitorMail?: AdminStats["visitorMail"];
    retention?: AdminStats["retention"];
    ages?: AdminStats["ages"];
    parents?: AdminStats["parents"];
  } = {},
): AdminStats {
  const byDay = days(Array.from({ length: 30 }, (_, index) => (index === 20 ? 7 : index % 3)));
  const total = overrides.total ?? 1234;
  const confirmed = Math.round(total * 0.75);
  // 926 confirmed (of 1,234): 2 share an inbox, 7 unsubscribed, 3 bounced, 400 invited, 2 held, the rest waiting.
  const reachable = confirmed - 12;
  return {
    funnel: {
      joined: total,
      pending: total - confirmed,
      confirmed,
      inboxes: confirmed - 2,
      sharedInbox: 2,
      unsubscribed: 7,
      undeliverable: 3,
      reachable,
      invited: Math.min(400, reachable),
      held: 2,
      waiting: reachable - Math.min(400, reachable) - 2,
    },
    waitlist: {
      total,
      pending: total - confirmed,
      confirmed,
      confirmationRate: total > 0 ? confirmed / total : 0,
      last24h: 5,
      last7d: 42,
      bySource: breakdown({ hero: 800, cta: 400 }, 34),
      byUtmSource: breakdown({ newsletter: 300, "(none)": 12 }, 922),
      byUtmMedium: breakdown({ email: 300 }),
      byUtmCampaign: breakdown({ "spring-launch": 120 }, 0, { values: 130, count: 214 }),
      byReferrerHost: breakdown({ "news.example.org": 77 }),
      byDay,
    },
    referrals: {
      confirmed: 370,
      viralCoefficient: confirmed > 0 ? 370 / confirmed : 0,
      top: [
        { email: "ada@example.com", code: "ADA23456", referrals: 41 },
        { email: "grace@example.com", code: "GRC23456", referrals: 7 },
      ],
      flagged: [{ email: "ada@example.com", code: "ADA23456", referrals: 41, fromOneNetwork: 12 }],
      clusters: [{ code: "ADA23456", ...SCHOOL }],
      flagAt: 5,
      ...overrides.referrals,
    },
    submissions: { total: 9, byForm: breakdown({ contact: 9 }) },
    notifications: { undelivered: overrides.undelivered ?? 3, oldestUndeliveredAt: "2026-01-30T08:15:00.000Z" },
    failedNotifications: { count: overrides.failed ?? 1, nextAttemptAt: "2026-01-30T09:00:00.000Z" },
    visitorMail: overrides.visitorMail ?? { budget: 5000, sentToday: 120, waiting: 0 },
    mailDeadLetters: 0,
    retention: overrides.retention ?? {
      schedule: { unconfirmed_entries: 30, referral_networks: 30, contact_messages: 365, parental_requests: 7 },
      today: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
      lastDays: { unconfirmed_entries: 0, referral_networks: 0, contact_messages: 0, parental_requests: 0 },
      lastDeletionDay: null,
    },
    // 1,234: 1,100 joined themselves (by their band), 34 on behalf of a child.
    ages: overrides.ages ?? {
      byBand: { under_13: 0, "13_15": 120, "16_17": 180, "18_plus": 500, unknown: total - 834 },
      onBehalfOfChild: { total: 34, byBand: { under_13: 30, "13_15": 4, "16_17": 0, "18_plus": 0, unknown: 0 } },
    },
    parents: overrides.parents ?? {
      pending: 6,
      oldestPendingAt: "2026-01-27T08:00:00.000Z",
      today: { agreed: 2, declined: 1, expired: 0 },
      lastDays: { agreed: 34, declined: 5, expired: 11 },
    },
  };
}

function entry(id: number, email: string, overrides: Partial<AdminListedEntry> = {}): AdminListedEntry {
  return {
    id,
    email,
    source: "hero",
    created_at: "2026-01-30T10:00:00.000Z",
    updated_at: "2026-01-30T10:00:00.000Z",
    utm_source: "newsletter",
    utm_medium: null,
    utm_campaign: "spring-launch",
    referrer_host: "news.example.org",
    status: "confirmed",
    confirmed_at: "2026-01-30T10:05:00.000Z",
    place: 12,
    referral_code: "ADA23456",
    referred_by: null,
    referrals_confirmed: 41,
    invited_at: null,
    invited_campaign_id: null,
    age_band: "18_plus",
    country: "US",
    on_behalf_of_child: false,
    held_at: null,
    referral_credit: null,
    referrals_voided: 0,
    email_sent: true,
    email_sent_at: "2026-01-30T10:00:05.000Z",
    notify_attempts: 1,
    notify_last_error: null,
    notify_next_attempt_at: null,
    ...overrides,
  };
}

function message(id: number, name: string, email: string, text: string, sent = true): AdminSubmission {
  return {
    id,
    form: "contact",
    fields: { name, email, message: text },
    created_at: "2026-01-29T09:30:00.000Z",
    email_sent: sent,
    email_sent_at: sent ? "2026-01-29T09:30:02.000Z" : null,
    notify_attempts: sent ? 1 : 2,
    notify_last_error: sent ? null : "provider answered 502",
    notify_next_attempt_at: sent ? null : "2026-01-29T10:30:00.000Z",
  };
}

const page = <T,>(items: T[], next: string | null = null, total = items.length): AdminPage<T> => ({ items, next_cursor: next, total });

// ---------------------------------------------------------------------------------------------
// The API stand-in: every request is recorded; answers come from `routes`, by "METHOD /path".

type Call = { method: string; url: URL; authorization: string | null; body: string | null };
type Handler = (call: Call) => Response | Promise<Response>;

let calls: Call[] = [];
let routes: Record<string, Handler> = {};

function defaultRoutes(): Record<string, Handler> {
  return {
    "GET /api/admin/stats": () => jsonResponse(200, stats()),
    "GET /api/admin/waitlist": () =>
      jsonResponse(
        200,
        page([
          entry(1, "ada@example.com"),
          entry(2, "grace@example.com", {
            email_sent: false,
            email_sent_at: null,
            notify_attempts: 2,
            notify_last_error: "timeout",
            notify_next_attempt_at: "2026-01-30T10:20:00.000Z",
          }),
          entry(3, "hedy@example.com", {
            email_sent: false,
            email_sent_at: null,
            notify_attempts: 0,
            status: "pending",
            confirmed_at: null,
            place: null,
            referral_code: null,
            referred_by: "ADA23456",
            referrals_confirmed: 0,
          }),
        ]),
      ),
    "GET /api/admin/submissions": () =>
      jsonResponse(
        200,
        page([message(7, "Alan", "alan@example.com", "Hello there"), message(8, "Barbara", "barbara@example.com", "Is it free?", false)]),
      ),
  };
}

beforeEach(() => {
  calls = [];
  routes = defaultRoutes();
  auth.state.session = session();
  auth.state.refreshed = null;
  auth.client.getSession.mockClear();
  auth.client.refreshSession.mockClear();
  auth.client.signOut.mockClear();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const call = { method, url, authorization: headers.get("Authorization"), body: typeof init?.body === "string" ? init.body : null };
    calls.push(call);
    const handler =
      routes[`${method} ${url.pathname}`] ??
      Object.entries(routes).find(([key]) => key.endsWith("*") && `${method} ${url.pathname}`.startsWith(key.slice(0, -1)))?.[1];
    if (!handler) return apiError(404, "not_found", `No route for ${method} ${url.pathname}`);
    return handler(call);
  });
});

// jsdom has no object URLs: the download tests put stand-ins in, removed after each test.
const { createObjectURL, revokeObjectURL } = URL;

afterEach(() => {
  auth.listeners.clear();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.url.pathname === path);

async function openConsole() {
  const user = userEvent.setup();
  render(<AdminApp />);
  await screen.findByRole("heading", { level: 1, name: admin.title });
  // The lists have loaded.
  await screen.findByRole("cell", { name: "alan@example.com" });
  // (The referrers' tables name ada@example.com too: the waitlist's own row is looked for.)
  await within(await screen.findByRole("table", { name: admin.waitlist.caption })).findByRole("rowheader", { name: "ada@example.com" });
  return user;
}

const section = (name: string) => screen.getByRole("region", { name });

// ---------------------------------------------------------------------------------------------

describe("who may see the console", () => {
  it("says it is checking, then shows the sign-in link when nobody is signed in (and asks the API nothing)", async () => {
    auth.state.session = null;
    render(<AdminApp />);
    expect(screen.getByRole("status").textContent).toBe(admin.checking);

    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    const link = screen.getByRole("link", { name: admin.signedOut.link });
    expect(link.getAttribute("href")).toBe(LOGIN_URL);
    expect(screen.getByText(admin.signedOut.text)).toBeTruthy();
    expect(screen.queryByText(admin.signedOut.sessionEnded)).toBeNull();
    expect(calls).toEqual([]);
    // The title follows the view in an effect, which may run just after the heading shows.
    await waitFor(() => expect(document.title).toBe(`${admin.signedOut.title} · ${admin.documentTitle}`));
  });

  it("a 401 (after one refresh that fails) ends the session: the signed-out view says so", async () => {
    routes["GET /api/admin/stats"] = () => apiError(401, "not_signed_in", "Sign in first.");
    render(<AdminApp />);

    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    expect(screen.getByText(admin.signedOut.sessionEnded)).toBeTruthy();
    expect(screen.getByRole("link", { name: admin.signedOut.link }).getAttribute("href")).toBe(LOGIN_URL);
    expect(auth.client.refreshSession).toHaveBeenCalledTimes(1);
    expect(auth.client.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(callsTo("GET", "/api/admin/stats")).toHaveLength(1);
  });

  it("a 401 whose refresh gives a new token is asked again with it", async () => {
    auth.state.refreshed = session(OPERATOR, "fresh-token");
    routes["GET /api/admin/stats"] = ({ authorization }) =>
      authorization === "Bearer fresh-token" ? jsonResponse(200, stats()) : apiError(401, "not_signed_in", "Expired.");
    render(<AdminApp />);

    await screen.findByRole("heading", { level: 1, name: admin.title });
    expect(callsTo("GET", "/api/admin/stats").map((call) => call.authorization)).toEqual([`Bearer ${TOKEN}`, "Bearer fresh-token"]);
    expect(auth.client.signOut).not.toHaveBeenCalled();
  });

  it("a 403 not_operator shows 'Not authorised' with who is signed in, and signing out from it", async () => {
    auth.state.session = session("student@example.com");
    routes["GET /api/admin/stats"] = () => apiError(403, "not_operator", "Not an operator.");
    const user = userEvent.setup();
    render(<AdminApp />);

    await screen.findByRole("heading", { level: 1, name: admin.notAuthorised.title });
    expect(screen.getByText(admin.notAuthorised.text("student@example.com"))).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.queryByText(String(1234))).toBeNull();

    await user.click(screen.getByRole("button", { name: admin.signOut }));
    const heading = await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    expect(auth.client.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(document.activeElement).toBe(heading);
  });

  it("a 429 on the first call says so, and Try again opens the console", async () => {
    let first = true;
    routes["GET /api/admin/stats"] = () => {
      if (!first) return jsonResponse(200, stats());
      first = false;
      return apiError(429, "rate_limited", "Too many requests.");
    };
    const user = userEvent.setup();
    render(<AdminApp />);

    await screen.findByRole("heading", { level: 1, name: admin.failed.title });
    expect(screen.getByRole("alert").textContent).toBe(admin.errors.tooMany);
    await user.click(screen.getByRole("button", { name: admin.tryAgain }));
    await screen.findByRole("heading", { level: 1, name: admin.title });
  });

  it("no answer at all (network) says to check the connection", async () => {
    routes["GET /api/admin/stats"] = () => Promise.reject(new TypeError("Failed to fetch"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    render(<AdminApp />);
    await screen.findByRole("heading", { level: 1, name: admin.failed.title });
    expect(screen.getByRole("alert").textContent).toBe(admin.errors.network);
  });

  it("signing out in another tab shows the signed-out view", async () => {
    await openConsole();
    act(() => auth.emit("SIGNED_OUT", null));
    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
  });

  it("signing in in another tab carries on from the signed-out view", async () => {
    auth.state.session = null;
    render(<AdminApp />);
    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    auth.state.session = session();
    act(() => auth.emit("SIGNED_IN", session()));
    await screen.findByRole("heading", { level: 1, name: admin.title });
  });

  it("also follows the stored session's storage events (a background tab may hear auth-js's relay late)", async () => {
    auth.state.session = null;
    render(<AdminApp />);
    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    auth.state.session = session();
    const stored = JSON.stringify({ access_token: TOKEN, user: { email: OPERATOR } });
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: "other-key", newValue: "x" }));
    });
    expect(screen.getByRole("heading", { level: 1, name: admin.signedOut.title })).toBeTruthy();
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: "hwh-auth", oldValue: null, newValue: stored }));
    });
    await screen.findByRole("heading", { level: 1, name: admin.title });

    auth.state.session = null;
    act(() => {
      window.dispatchEvent(new StorageEvent("storage", { key: "hwh-auth", oldValue: stored, newValue: null }));
    });
    await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
  });
});

describe("the console", () => {
  it("shows the retention schedule and what it deleted, per kind, today and over the last 30 days (issue 23)", async () => {
    routes["GET /api/admin/stats"] = () =>
      jsonResponse(
        200,
        stats({
          retention: {
            schedule: { unconfirmed_entries: 30, referral_networks: 14, contact_messages: 365, parental_requests: 7 },
            today: { unconfirmed_entries: 3, referral_networks: 0, contact_messages: 1, parental_requests: 0 },
            lastDays: { unconfirmed_entries: 1204, referral_networks: 1, contact_messages: 1, parental_requests: 0 },
            lastDeletionDay: "2026-11-28",
          },
        }),
      );
    await openConsole();
    const retention = within(section(admin.overview.title)).getByRole("list", { name: admin.overview.retention.title });
    expect(
      within(retention)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Unconfirmed sign-ups, kept 30 days: 3 deleted today, 1,204 in the last 30 days.",
      "Referral network hashes, kept 14 days: none cleared today, 1 in the last 30 days.",
      "Contact messages, kept 365 days: 1 deleted today, 1 in the last 30 days.",
      "Unanswered parental requests, kept 7 days: none deleted today, none in the last 30 days.",
    ]);
    expect(within(section(admin.overview.title)).getByText("Last deletion: 2026-11-28 (UTC).")).toBeTruthy();
  });

  it("says when the retention schedule has deleted nothing yet", async () => {
    await openConsole();
    const overview = within(section(admin.overview.title));
    expect(overview.getByText("Unconfirmed sign-ups, kept 30 days: none deleted today, none in the last 30 days.")).toBeTruthy();
    expect(overview.getByText("Nothing has been deleted yet.")).toBeTruthy();
  });

  it("says when the day's budget of visitor e-mail is reached and e-mails wait (issue 22)", async () => {
    routes["GET /api/admin/stats"] = () => jsonResponse(200, stats({ visitorMail: { budget: 5000, sentToday: 5000, waiting: 35 } }));
    await openConsole();
    const line = within(section(admin.overview.title)).getByText(
      admin.overview.visitorMail({ budget: 5000, sentToday: 5000, waiting: 35 }),
    );
    expect(line.textContent).toBe(
      "Visitor e-mail today: 5,000 of the daily budget of 5,000 sent. Budget reached: 35 e-mails wait and go out, oldest first, as the budget allows.",
    );
    expect(line.className).toContain("overview__mail--reached");
    // Reached with nothing waiting yet, and one waiting: said, not left to the figures.
    expect(admin.overview.visitorMail({ budget: 5000, sentToday: 5000, waiting: 0 })).toBe(
      "Visitor e-mail today: 5,000 of the daily budget of 5,000 sent. Budget reached: the next e-mails wait for the next UTC day.",
    );
    expect(admin.overview.visitorMail({ budget: 2, sentToday: 2, waiting: 1 })).toContain("Budget reached: 1 e-mail waits and goes out");
  });

  it("lists the mail queue's dead letters when the stats count any, and retries one, then all (issue 24)", async () => {
    routes["GET /api/admin/stats"] = () => jsonResponse(200, { ...stats(), mailDeadLetters: 2 });
    routes["GET /api/admin/mail/dead-letters"] = () =>
      jsonResponse(200, {
        total: 2,
        dead_letters: [
          {
            kind: "joiner",
            row_id: 12,
            error: "Not recorded after the mail queue's retries",
            dead_lettered_at: "2026-12-04T10:00:00.000Z",
          },
          { kind: "form", row_id: 3, error: "Not recorded after the mail queue's retries", dead_lettered_at: "2026-12-04T09:00:00.000Z" },
        ],
      });
    routes["POST /api/admin/mail/dead-letters/retry"] = () => jsonResponse(200, { requeued: 1 });
    await openConsole();
    const overview = within(section(admin.overview.title));
    expect(await overview.findByText("Joiner's confirmation or welcome")).toBeTruthy();
    expect(overview.getByText("Team notification (form)")).toBeTruthy();
    expect(overview.getByText("E-mails that failed every retry (2)")).toBeTruthy();

    await userEvent.click(overview.getByRole("button", { name: "Retry the joiner's confirmation or welcome of row 12" }));
    expect(await overview.findByText("1 e-mail back on the mail queue.")).toBeTruthy();
    expect(JSON.parse(callsTo("POST", "/api/admin/mail/dead-letters/retry")[0]!.body!)).toEqual({ rows: [{ kind: "joiner", row_id: 12 }] });
    expect(overview.queryByText("Joiner's confirmation or welcome")).toBeNull();

    await userEvent.click(overview.getByRole("button", { name: "Retry all" }));
    await waitFor(() => expect(callsTo("POST", "/api/admin/mail/dead-letters/retry")).toHaveLength(2));
    expect(JSON.parse(callsTo("POST", "/api/admin/mail/dead-letters/retry")[1]!.body!)).toEqual({});
    await waitFor(() => expect(overview.queryByText("Team notification (form)")).toBeNull());
  });

  it("asks for no mail dead letters while the stats count none", async () => {
    await openConsole();
    expect(callsTo("GET", "/api/admin/mail/dead-letters")).toHaveLength(0);
  });

  it("shows who is signed in, the figures, the chart, the breakdowns and both lists, asking with the bearer token", async () => {
    await openConsole();
    const banner = screen.getByRole("banner");
    expect(within(banner).getByText(admin.signedInAs(OPERATOR))).toBeTruthy();
    expect(within(banner).getByRole("button", { name: admin.signOut })).toBeTruthy();
    expect(within(banner).getByRole("navigation", { name: admin.nav.label })).toBeTruthy();
    expect(document.title).toBe(admin.documentTitle);

    // Every call carries the operator's token.
    expect(calls.length).toBeGreaterThanOrEqual(3);
    for (const call of calls) expect(call.authorization).toBe(`Bearer ${TOKEN}`);

    // The figures.
    const overview = section(admin.overview.title);
    const figure = (label: string) => within(overview).getByText(label).closest("div")!.querySelector("dd")!.textContent;
    expect(figure(admin.overview.total)).toBe("1,234");
    expect(figure(admin.overview.last24h)).toBe("5");
    expect(figure(admin.overview.last7d)).toBe("42");
    expect(figure(admin.overview.submissions)).toBe("9");
    expect(figure(admin.overview.undelivered)).toBe("3");
    expect(within(overview).getByText(admin.overview.visitorMail({ budget: 5000, sentToday: 120, waiting: 0 }))).toBeTruthy();

    // The funnel (issue 22): each step, and the counts that explain its difference to the one before.
    const funnel = within(overview).getByRole("list", { name: admin.overview.funnel.title });
    const steps = within(funnel)
      .getAllByRole("listitem")
      .map((step) => step.textContent);
    expect(steps).toEqual([
      `${admin.overview.funnel.confirmed}926${admin.overview.funnel.pending(1234, 308)}`,
      `${admin.overview.funnel.inboxes}924${admin.overview.funnel.sharedInbox(926, 924, 2)}`,
      `${admin.overview.funnel.reachable}914${admin.overview.funnel.suppressed(7, 3)}`,
      `${admin.overview.funnel.invited}400${admin.overview.funnel.notInvited(914, 512, 2)}`,
    ]);
    expect(admin.overview.funnel.sharedInbox(61, 59, 2)).toBe("61 confirmed, 59 inboxes: 2 share an inbox with an earlier entry.");
    expect(admin.overview.funnel.pending(70, 9)).toBe("Of 70 people on the waitlist, 9 are still to confirm.");
    expect(admin.overview.funnel.suppressed(1, 0)).toBe("1 unsubscribed, none bounced or complained.");
    expect(admin.overview.funnel.notInvited(56, 14, 2)).toBe("Of 56: 14 waiting for a wave, 2 held out of waves.");

    // The chart: an image named by its summary, one bar per day with its <title>, and the table.
    const chart = section(admin.chart.title);
    const total = stats().waitlist.byDay.reduce((sum, day) => sum + day.count, 0);
    const summary = admin.chart.summary(total, 30, { date: "21 Jan 2026", count: 7 });
    expect(within(chart).getByText(summary)).toBeTruthy();
    const image = within(chart).getByRole("img");
    expect(image.tagName.toLowerCase()).toBe("svg");
    expect(image.getAttribute("aria-labelledby")).toContain("-summary");
    const bars = chart.querySelectorAll("rect.chart__bar");
    expect(bars).toHaveLength(30);
    const titles = [...chart.querySelectorAll("g.chart__day > title")].map((title) => title.textContent);
    expect(titles[20]).toBe(admin.chart.barTitle("21 Jan 2026", 7));
    // The busiest day's bar is the full height; an empty day has none.
    expect(bars[20]!.getAttribute("height")).toBe("100");
    expect(bars[0]!.getAttribute("height")).toBe("0");
    expect(within(chart).getByText(admin.chart.showTable).tagName.toLowerCase()).toBe("summary");
    const dayTable = within(chart).getByRole("table", { name: admin.chart.tableCaption });
    expect(within(dayTable).getAllByRole("row")).toHaveLength(31);
    expect(within(dayTable).getByRole("rowheader", { name: "21 Jan 2026" }).nextElementSibling!.textContent).toBe("7");

    // The breakdowns, each a small table: the values most first, then the entries without a value
    // (never mistaken for a visitor's own "(none)"), then the other values together.
    const rowsOf = (title: string) =>
      within(screen.getByRole("table", { name: title }))
        .getAllByRole("rowheader")
        .map((cell) => [cell.textContent, cell.nextElementSibling!.textContent, cell.classList.contains("muted")]);
    expect(rowsOf(admin.breakdowns.bySource.title)).toEqual([
      ["hero", "800", false],
      ["cta", "400", false],
      [admin.breakdowns.none, "34", true],
    ]);
    expect(rowsOf(admin.breakdowns.byUtmSource.title)).toEqual([
      ["newsletter", "300", false],
      ["(none)", "12", false],
      [admin.breakdowns.none, "922", true],
    ]);
    expect(admin.breakdowns.none).not.toBe("(none)");
    expect(rowsOf(admin.breakdowns.byUtmCampaign.title)).toEqual([
      ["spring-launch", "120", false],
      [admin.breakdowns.other(130), "214", true],
    ]);
    // Issue 15: each row's share of all 1,234 sign-ups (9 messages for the form table), the
    // no-value and "Other" rows included, so a table adds up to 100%; the denominator is said.
    const sharesOf = (title: string) =>
      within(screen.getByRole("table", { name: title }))
        .getAllByRole("row")
        .map((row) => [...row.children].map((cell) => cell.textContent).at(-1));
    expect(sharesOf(admin.breakdowns.bySource.title)).toEqual([admin.breakdowns.share, "64.8%", "32.4%", "2.8%"]);
    expect(sharesOf(admin.breakdowns.byUtmSource.title)).toEqual([admin.breakdowns.share, "24.3%", "1%", "74.7%"]);
    expect(sharesOf(admin.breakdowns.byUtmCampaign.title)).toEqual([admin.breakdowns.share, "9.7%", "17.3%"]);
    expect(sharesOf(admin.breakdowns.byForm.title)).toEqual([admin.breakdowns.share, "100%"]);
    expect(within(section(admin.breakdowns.title)).getByText(admin.breakdowns.shareNote(1234, 9))).toBeTruthy();
    expect(admin.breakdowns.shareNote(1234, 9)).toContain("of all 1,234 sign-ups");
    expect(admin.breakdowns.other(130)).toBe("Other (130 values)");
    for (const title of [
      admin.breakdowns.byUtmMedium.title,
      admin.breakdowns.byUtmCampaign.title,
      admin.breakdowns.byReferrerHost.title,
      admin.breakdowns.byForm.title,
    ]) {
      expect(screen.getByRole("table", { name: title })).toBeTruthy();
    }
    expect(within(screen.getByRole("table", { name: admin.breakdowns.byReferrerHost.title })).getByText("news.example.org")).toBeTruthy();

    // Notifications.
    const delivery = section(admin.delivery.title);
    expect(within(delivery).getByText(admin.delivery.undelivered(3, "30 Jan 2026, 08:15 UTC"))).toBeTruthy();
    // Issue 15: of the three, one failed (retried from 09:00) and two simply wait for the digest.
    expect(within(delivery).getByText(admin.delivery.split(2, 1, "30 Jan 2026, 09:00 UTC"))).toBeTruthy();
    expect(within(delivery).getByRole("button", { name: admin.delivery.retry }).hasAttribute("aria-disabled")).toBe(false);

    // The waitlist, with delivery status and attribution.
    const waitlist = screen.getByRole("table", { name: admin.waitlist.caption });
    const rows = within(waitlist).getAllByRole("row");
    expect(rows).toHaveLength(4);
    // Issue 15: the column is named after what it is, the team's alert e-mail.
    expect(within(rows[0]!).getByRole("columnheader", { name: "Team alert" })).toBeTruthy();
    const delivered = rows[1]!.querySelector(".cell-delivery")!;
    expect(delivered.textContent).toBe(`${admin.notification.sentBadge}30 Jan 2026, 10:00 UTC`);
    expect(within(rows[1]!).getByText("newsletter / – / spring-launch")).toBeTruthy();
    // A failed alert says so, with its error and next try; one that waits for the digest is no failure.
    expect(rows[2]!.querySelector(".cell-delivery")!.textContent).toBe(
      `Failed${admin.notification.failedNote(2, "timeout", "30 Jan 2026, 10:20 UTC")}`,
    );
    expect(admin.notification.failedNote(2, "timeout", "30 Jan 2026, 10:20 UTC")).toBe(
      "2 attempts, last error: timeout. Next try 30 Jan 2026, 10:20 UTC.",
    );
    expect(rows[3]!.querySelector(".cell-delivery")!.textContent).toBe(`Waiting for the digest${admin.notification.waitingNote}`);
    expect(rows[3]!.querySelector(".badge--failed")).toBeNull();
    expect(within(section(admin.waitlist.title)).getByRole("region", { name: admin.waitlist.caption }).getAttribute("tabindex")).toBe("0");

    // The contact messages.
    const messages = screen.getByRole("table", { name: admin.messages.caption });
    expect(within(messages).getByText("Is it free?")).toBeTruthy();
    expect(within(messages).getByText(admin.notification.failedNote(2, "provider answered 502", "29 Jan 2026, 10:30 UTC"))).toBeTruthy();
    expect(callsTo("GET", "/api/admin/submissions")[0]!.url.searchParams.get("form")).toBe("contact");
  });

  it("shows pending and confirmed, the confirmation rate, confirmed referrals, the viral coefficient, the top referrers and flagged networks (issue 16)", async () => {
    await openConsole();
    expect(
      within(screen.getByRole("navigation", { name: admin.nav.label }))
        .getByRole("link", { name: admin.nav.referrals })
        .getAttribute("href"),
    ).toBe("#referrals");
    const referrals = section(admin.referrals.title);
    const figure = (label: string) =>
      within(referrals).getByText(label, { selector: "dt" }).closest("div")!.querySelector("dd")!.textContent;
    // 926 of 1,234 confirmed; 370 confirmed referrals per 926 confirmed joiners.
    expect(figure(admin.referrals.pending)).toBe("308");
    expect(figure(admin.referrals.confirmed)).toBe("926");
    expect(figure(admin.referrals.rate)).toBe("75%");
    expect(figure(admin.referrals.referrals)).toBe("370");
    expect(figure(admin.referrals.viral)).toBe("0.40");
    expect(within(referrals).getByText(admin.referrals.note)).toBeTruthy();

    const rowsOf = (name: string) =>
      within(within(referrals).getByRole("table", { name }))
        .getAllByRole("row")
        .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rowsOf(admin.referrals.top.title)).toEqual([
      [admin.referrals.top.email, admin.referrals.top.code, admin.referrals.top.count],
      ["ada@example.com", "ADA23456", "41"],
      ["grace@example.com", "GRC23456", "7"],
    ]);
    // Flagged: the referrer and its count from one network, never the network; what a flag means is said.
    expect(rowsOf(admin.referrals.flagged.title)).toEqual([
      [admin.referrals.flagged.email, admin.referrals.flagged.code, admin.referrals.flagged.fromOne],
      ["ada@example.com", "ADA23456", "12"],
    ]);
    expect(within(referrals).getByText(admin.referrals.flagged.intro(5))).toBeTruthy();
    expect(admin.referrals.flagged.intro(5)).toContain("5 confirmed referrals or more from one network");

    // The waitlist's journey columns: status (and when), place, the codes, the referrals.
    const waitlist = screen.getByRole("table", { name: admin.waitlist.caption });
    const [head, ada, , hedy] = within(waitlist).getAllByRole("row");
    const headers = [...head!.children].map((cell) => cell.textContent);
    const cellOf = (row: HTMLElement, header: string) => row.children[headers.indexOf(header)]!.textContent;
    const columns = admin.waitlist.columns;
    expect(headers).toEqual(
      expect.arrayContaining([columns.status, columns.place, columns.referralCode, columns.referredBy, columns.referrals]),
    );
    expect(cellOf(ada!, columns.status)).toBe(`${admin.waitlist.status.confirmed}30 Jan 2026, 10:05 UTC`);
    expect(cellOf(ada!, columns.place)).toBe("#12");
    expect(cellOf(ada!, columns.referralCode)).toBe("ADA23456");
    expect(cellOf(ada!, columns.referrals)).toBe("41");
    expect(cellOf(hedy!, columns.status)).toBe(admin.waitlist.status.pending);
    expect(cellOf(hedy!, columns.place)).toBe(`—${admin.none}`);
    expect(cellOf(hedy!, columns.referralCode)).toBe(`—${admin.none}`);
    expect(cellOf(hedy!, columns.referredBy)).toBe("ADA23456");
    expect(cellOf(hedy!, columns.referrals)).toBe("0");
  });

  it("shows how each flagged referrer's referrals cluster by network, time and inbox, so a school reads apart from a ring (issue 22)", async () => {
    const ring: ReferralClusters = {
      total: 6,
      byNetwork: [6],
      withinHour: 6,
      withinDay: 6,
      spanHours: 0.2,
      domains: 1,
      lookAlike: 6,
      reading: "ring",
    };
    routes["GET /api/admin/stats"] = () =>
      jsonResponse(
        200,
        stats({
          referrals: {
            confirmed: 50,
            viralCoefficient: 0.1,
            top: [],
            flagged: [
              { email: "ada@example.com", code: "ADA23456", referrals: 41, fromOneNetwork: 12 },
              { email: "ring@example.com", code: "RNG23456", referrals: 6, fromOneNetwork: 6 },
            ],
            clusters: [
              { code: "ADA23456", ...SCHOOL },
              { code: "RNG23456", ...ring },
            ],
            flagAt: 5,
          },
        }),
      );
    await openConsole();
    const text = admin.referrals.clusters;
    const table = within(section(admin.referrals.title)).getByRole("table", { name: text.title });
    expect(
      within(table)
        .getAllByRole("row")
        .map((row) => [...row.children].map((cell) => cell.textContent)),
    ).toEqual([
      [text.referrer, text.networks, text.withinHour, text.withinDay, text.span, text.alike, text.reads],
      ["ada@example.com", "12 · 3", "4", "9", "5 days", "2 of 44 (3 domains)", text.reading.group],
      ["ring@example.com", "6", "6", "6", "0.2 h", "6 of 6 (1 domain)", text.reading.ring],
    ]);
    expect(within(section(admin.referrals.title)).getByText(text.intro)).toBeTruthy();
  });

  it("after voided credits, the flag's and the clusters' counts say how many of them were voided, so they agree with Top referrers (issue 22 review)", async () => {
    const ring: ReferralClusters = {
      total: 8,
      byNetwork: [8],
      withinHour: 8,
      withinDay: 8,
      spanHours: 0,
      domains: 1,
      lookAlike: 8,
      reading: "ring",
    };
    routes["GET /api/admin/stats"] = () =>
      jsonResponse(
        200,
        stats({
          referrals: {
            confirmed: 11,
            viralCoefficient: 0.2,
            top: [{ email: "ringleader.max@mailnest.example", code: "P44ZX44M", referrals: 5 }],
            flagged: [{ email: "ringleader.max@mailnest.example", code: "P44ZX44M", referrals: 5, fromOneNetwork: 8 }],
            clusters: [{ code: "P44ZX44M", ...ring }],
            voided: [{ code: "P44ZX44M", total: 3, fromOneNetwork: 3 }],
            flagAt: 5,
          },
        }),
      );
    await openConsole();
    const referrals = section(admin.referrals.title);
    const rowsOf = (name: string) =>
      within(within(referrals).getByRole("table", { name }))
        .getAllByRole("row")
        .slice(1)
        .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rowsOf(admin.referrals.top.title)).toEqual([["ringleader.max@mailnest.example", "P44ZX44M", "5"]]);
    expect(rowsOf(admin.referrals.flagged.title)).toEqual([["ringleader.max@mailnest.example", "P44ZX44M", "8 (3 voided)"]]);
    expect(rowsOf(admin.referrals.clusters.title)[0]!.slice(0, 2)).toEqual(["ringleader.max@mailnest.example", "8 (3 voided)"]);
    // What "voided" in a count means is said where the counts are.
    expect(admin.referrals.flagged.intro(5)).toContain("A voided credit still counts here");
    // An address may wrap before its "@" and after its dots, never inside a piece when there is room.
    const address = within(within(referrals).getByRole("table", { name: admin.referrals.flagged.title })).getByRole("rowheader");
    expect(address.querySelectorAll("wbr")).toHaveLength(3);
  });

  it("says when nobody referred anyone yet and no referrer is flagged", async () => {
    routes["GET /api/admin/stats"] = () =>
      jsonResponse(200, stats({ referrals: { confirmed: 0, viralCoefficient: 0, top: [], flagged: [], flagAt: 7 } }));
    await openConsole();
    const referrals = section(admin.referrals.title);
    expect(within(referrals).queryAllByRole("table")).toHaveLength(0);
    expect(within(referrals).getByText(admin.referrals.top.empty)).toBeTruthy();
    expect(within(referrals).getByText(admin.referrals.flagged.empty(7))).toBeTruthy();
    expect(admin.referrals.flagged.empty(7)).toBe("No referrer has 7 confirmed referrals or more from one network.");
    expect(within(referrals).getByText("0.00")).toBeTruthy();
  });

  it("says when every notification is delivered and a list is empty", async () => {
    routes["GET /api/admin/stats"] = () => jsonResponse(200, stats({ undelivered: 0 }));
    routes["GET /api/admin/submissions"] = () => jsonResponse(200, page([]));
    render(<AdminApp />);
    await screen.findByRole("heading", { level: 1, name: admin.title });
    const delivery = section(admin.delivery.title);
    expect(within(delivery).getByText(admin.delivery.allDelivered)).toBeTruthy();
    // Issue 15: nothing waits, so Retry now is disabled (still focusable) and says why.
    const retry = within(delivery).getByRole("button", { name: admin.delivery.retry });
    expect(retry.getAttribute("aria-disabled")).toBe("true");
    expect(document.getElementById(retry.getAttribute("aria-describedby")!)!.textContent).toBe(admin.delivery.nothingWaits);
    await userEvent.setup().click(retry);
    expect(callsTo("POST", "/api/admin/notifications/retry")).toHaveLength(0);
    await within(section(admin.messages.title)).findByText(admin.table.empty);
    expect(screen.queryByRole("table", { name: admin.messages.caption })).toBeNull();
    // No more pages: no paging buttons.
    expect(within(section(admin.messages.title)).queryByRole("button", { name: admin.table.next })).toBeNull();
  });

  it("searches the waitlist and pages through it by cursor, keeping the cursors for Previous", async () => {
    routes["GET /api/admin/waitlist"] = ({ url }) => {
      const q = url.searchParams.get("q");
      const cursor = url.searchParams.get("cursor");
      if (!q) return jsonResponse(200, page([entry(1, "ada@example.com")]));
      if (cursor === null) return jsonResponse(200, page([entry(10, "ann1@example.com"), entry(11, "ann2@example.com")], "cursor-page-2"));
      if (cursor === "cursor-page-2") return jsonResponse(200, page([entry(12, "ann3@example.com")], "cursor-page-3"));
      if (cursor === "cursor-page-3") return jsonResponse(200, page([entry(13, "ann4@example.com")]));
      return apiError(400, "invalid_request", "Bad cursor.");
    };
    const user = await openConsole();
    const waitlist = section(admin.waitlist.title);
    const listCalls = () => callsTo("GET", "/api/admin/waitlist");
    expect(listCalls()[0]!.url.searchParams.get("limit")).toBe("25");
    expect(listCalls()[0]!.url.searchParams.has("cursor")).toBe(false);
    // "campaign" alone would now also mean the Campaigns view's (review 17R-ui 8): the field is utm_campaign.
    expect(within(waitlist).getByRole("search", { name: "Search the waitlist by e-mail, utm_campaign or referral code" })).toBeTruthy();

    await user.type(within(waitlist).getByRole("searchbox", { name: admin.waitlist.searchLabel }), "  ann ");
    await user.click(within(waitlist).getByRole("button", { name: admin.table.searchButton }));
    await within(waitlist).findByText("ann1@example.com");
    let last = listCalls().at(-1)!.url;
    expect(last.searchParams.get("q")).toBe("ann");
    expect(last.searchParams.has("cursor")).toBe(false);
    expect(
      within(waitlist)
        .getAllByRole("status")
        .map((s) => s.textContent),
    ).toContain(admin.table.showing(2, 1, "ann", 2, 25));
    expect(within(waitlist).getByRole("button", { name: admin.table.previous }).hasAttribute("disabled")).toBe(true);

    await user.click(within(waitlist).getByRole("button", { name: admin.table.next }));
    await within(waitlist).findByText("ann3@example.com");
    last = listCalls().at(-1)!.url;
    expect(last.searchParams.get("cursor")).toBe("cursor-page-2");
    expect(last.searchParams.get("q")).toBe("ann");
    expect(within(waitlist).getByText(admin.table.page(2))).toBeTruthy();
    // Focus goes to the list's heading, above the table the page change replaced.
    expect(document.activeElement).toBe(within(waitlist).getByRole("heading", { level: 2, name: admin.waitlist.title }));

    await user.click(within(waitlist).getByRole("button", { name: admin.table.next }));
    await within(waitlist).findByText("ann4@example.com");
    expect(listCalls().at(-1)!.url.searchParams.get("cursor")).toBe("cursor-page-3");
    expect(within(waitlist).getByRole("button", { name: admin.table.next }).hasAttribute("disabled")).toBe(true);

    await user.click(within(waitlist).getByRole("button", { name: admin.table.previous }));
    await within(waitlist).findByText("ann3@example.com");
    expect(listCalls().at(-1)!.url.searchParams.get("cursor")).toBe("cursor-page-2");
    await user.click(within(waitlist).getByRole("button", { name: admin.table.previous }));
    await within(waitlist).findByText("ann1@example.com");
    expect(listCalls().at(-1)!.url.searchParams.has("cursor")).toBe(false);
    expect(within(waitlist).getByText(admin.table.page(1))).toBeTruthy();

    // Nothing found says so; Clear goes back to everything.
    routes["GET /api/admin/waitlist"] = ({ url }) =>
      jsonResponse(200, page(url.searchParams.get("q") ? [] : [entry(1, "ada@example.com")]));
    const box = within(waitlist).getByRole("searchbox", { name: admin.waitlist.searchLabel });
    await user.clear(box);
    await user.type(box, "nobody{Enter}");
    await within(waitlist).findByText(admin.table.noMatch("nobody"));
    await user.click(within(waitlist).getByRole("button", { name: admin.table.clear }));
    await within(waitlist).findByText("ada@example.com");
    expect(listCalls().at(-1)!.url.searchParams.has("q")).toBe(false);
    expect(document.activeElement).toBe(box);
  });

  it("says which entries of how many a page shows (26-50 of 60), and Next page brings the list's top into view (issue 15)", async () => {
    const many = Array.from({ length: 60 }, (_, i) => entry(100 - i, `pupil${i + 1}@example.com`));
    routes["GET /api/admin/waitlist"] = ({ url }) => {
      const from = Number(url.searchParams.get("cursor") ?? 0);
      const next = from + 25 < many.length ? String(from + 25) : null;
      return jsonResponse(200, page(many.slice(from, from + 25), next, many.length));
    };
    const scrolled: Element[] = [];
    vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    const user = userEvent.setup();
    render(<AdminApp />);
    await screen.findByRole("rowheader", { name: "pupil1@example.com" });
    const waitlist = section(admin.waitlist.title);
    const status = () =>
      within(waitlist)
        .getAllByRole("status")
        .map((s) => s.textContent);
    await waitFor(() => expect(status()).toContain("1-25 of 60 entries on page 1."));

    await user.click(within(waitlist).getByRole("button", { name: admin.table.next }));
    await within(waitlist).findByText("pupil26@example.com");
    expect(status()).toContain("26-50 of 60 entries on page 2.");
    const heading = within(waitlist).getByRole("heading", { level: 2, name: admin.waitlist.title });
    expect(scrolled).toEqual([heading]);
    expect(document.activeElement).toBe(heading);

    await user.click(within(waitlist).getByRole("button", { name: admin.table.next }));
    await within(waitlist).findByText("pupil60@example.com");
    expect(status()).toContain("51-60 of 60 entries on page 3.");
    await user.click(within(waitlist).getByRole("button", { name: admin.table.previous }));
    await within(waitlist).findByText("pupil26@example.com");
    expect(scrolled).toEqual([heading, heading, heading]);
    expect(document.activeElement).toBe(heading);
  });

  it("searches the contact messages with form=contact", async () => {
    const user = await openConsole();
    const messages = section(admin.messages.title);
    await user.type(within(messages).getByRole("searchbox", { name: admin.messages.searchLabel }), "free{Enter}");
    await waitFor(() => expect(callsTo("GET", "/api/admin/submissions").at(-1)!.url.searchParams.get("q")).toBe("free"));
    expect(callsTo("GET", "/api/admin/submissions").at(-1)!.url.searchParams.get("form")).toBe("contact");
  });

  it("a network failure while paging says so, and Try again loads the page", async () => {
    let fail = false;
    routes["GET /api/admin/waitlist"] = () =>
      fail ? Promise.reject(new TypeError("Failed to fetch")) : jsonResponse(200, page([entry(1, "ada@example.com")], "next"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = await openConsole();
    const waitlist = section(admin.waitlist.title);
    fail = true;
    await user.click(within(waitlist).getByRole("button", { name: admin.table.next }));
    await waitFor(() =>
      expect(
        within(waitlist)
          .getAllByRole("alert")
          .map((alert) => alert.textContent),
      ).toContain(admin.errors.network),
    );
    fail = false;
    await user.click(within(waitlist).getByRole("button", { name: admin.tryAgain }));
    await waitFor(() =>
      expect(
        within(waitlist)
          .getAllByRole("alert")
          .every((alert) => alert.textContent === ""),
      ).toBe(true),
    );
    expect(callsTo("GET", "/api/admin/waitlist").at(-1)!.url.searchParams.get("cursor")).toBe("next");
  });

  it("a 401 on any later call (refresh refused) ends the session", async () => {
    const user = await openConsole();
    routes["GET /api/admin/waitlist"] = () => apiError(401, "not_signed_in", "Expired.");
    const waitlist = section(admin.waitlist.title);
    await user.type(within(waitlist).getByRole("searchbox", { name: admin.waitlist.searchLabel }), "x{Enter}");
    const heading = await screen.findByRole("heading", { level: 1, name: admin.signedOut.title });
    expect(screen.getByText(admin.signedOut.sessionEnded)).toBeTruthy();
    expect(document.activeElement).toBe(heading);
  });

  it("Retry now asks the server to requeue, announces how many, and reloads the figures", async () => {
    const retried = deferred<Response>();
    routes["POST /api/admin/notifications/retry"] = () => retried.promise;
    const user = await openConsole();
    const delivery = section(admin.delivery.title);
    const statsCalls = callsTo("GET", "/api/admin/stats").length;

    const button = within(delivery).getByRole("button", { name: admin.delivery.retry });
    await user.click(button);
    // Busy, but still focused (aria-disabled, not disabled).
    expect(button.textContent).toBe(admin.delivery.retrying);
    expect(button.getAttribute("aria-disabled")).toBe("true");
    expect(document.activeElement).toBe(button);
    await user.click(button);
    expect(callsTo("POST", "/api/admin/notifications/retry")).toHaveLength(1);

    routes["GET /api/admin/stats"] = () => jsonResponse(200, stats({ undelivered: 0 }));
    retried.resolve(jsonResponse(200, { requeued: 3 }));
    await within(delivery).findByText(admin.delivery.requeued(3));
    expect(within(delivery).getByRole("status").textContent).toBe(admin.delivery.requeued(3));
    await within(delivery).findByText(admin.delivery.allDelivered);
    expect(callsTo("GET", "/api/admin/stats").length).toBe(statsCalls + 1);
    expect(callsTo("POST", "/api/admin/notifications/retry")[0]!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("Retry now refused with a 429 shows the too-many message", async () => {
    routes["POST /api/admin/notifications/retry"] = () => apiError(429, "rate_limited", "Slow down.");
    const user = await openConsole();
    const delivery = section(admin.delivery.title);
    await user.click(within(delivery).getByRole("button", { name: admin.delivery.retry }));
    await waitFor(() => expect(within(delivery).getByRole("alert").textContent).toBe(admin.errors.tooMany));
    expect(within(delivery).getByRole("button", { name: admin.delivery.retry })).toBeTruthy();
  });

  it("Download CSV fetches the export with the token and saves it through an object URL and <a download>", async () => {
    const csv = "email,source\r\nada@example.com,hero\r\n";
    routes["GET /api/admin/waitlist.csv"] = () =>
      new Response(csv, {
        status: 200,
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="waitlist-2026-01-31.csv"' },
      });
    routes["GET /api/admin/submissions.csv"] = () => new Response("name\r\n", { status: 200, headers: { "Content-Type": "text/csv" } });
    const saved: { blob: Blob; url: string }[] = [];
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      const url = `blob:http://localhost/${saved.length}`;
      saved.push({ blob, url });
      return url;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });
    const user = await openConsole();

    const waitlist = section(admin.waitlist.title);
    await user.click(within(waitlist).getByRole("button", { name: admin.table.download }));
    await within(waitlist).findByText(admin.table.downloaded("waitlist-2026-01-31.csv"));
    const [download] = callsTo("GET", "/api/admin/waitlist.csv");
    expect(download!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(saved).toHaveLength(1);
    expect(await saved[0]!.blob.text()).toBe(csv);
    expect(clicked).toEqual([{ href: saved[0]!.url, download: "waitlist-2026-01-31.csv", inDocument: true }]);
    // The temporary link is gone.
    expect(document.querySelector("a[download]")).toBeNull();

    // Without a file name from the server, the console's own.
    const messages = section(admin.messages.title);
    await user.click(within(messages).getByRole("button", { name: admin.table.download }));
    await within(messages).findByText(admin.table.downloaded(admin.messages.csvName));
    expect(callsTo("GET", "/api/admin/submissions.csv")[0]!.url.searchParams.get("form")).toBe("contact");
    expect(clicked.at(-1)!.download).toBe(admin.messages.csvName);
  });

  it("a failed download says why and saves nothing", async () => {
    routes["GET /api/admin/waitlist.csv"] = () => apiError(503, "unavailable", "Database busy.");
    URL.createObjectURL = vi.fn(() => "blob:nothing");
    const user = await openConsole();
    const waitlist = section(admin.waitlist.title);
    await user.click(within(waitlist).getByRole("button", { name: admin.table.download }));
    await waitFor(() =>
      expect(
        within(waitlist)
          .getAllByRole("alert")
          .map((alert) => alert.textContent),
      ).toContain(admin.errors.unavailable),
    );
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it("Refresh loads the figures again and says so", async () => {
    const user = await openConsole();
    routes["GET /api/admin/stats"] = () => jsonResponse(200, stats({ total: 2000 }));
    const overview = section(admin.overview.title);
    await user.click(within(overview).getByRole("button", { name: admin.overview.refresh }));
    await within(overview).findByText("2,000");
    expect(within(overview).getByRole("status").textContent).toBe(admin.overview.refreshed);
  });
});

describe("students and their parents in the console (issue 23)", () => {
  const children = admin.overview.children;
  const items = (name: string) =>
    within(within(section(admin.overview.title)).getByRole("list", { name }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);

  it("shows the waitlist by age band, entries on behalf of a child apart, and the parental requests pending, agreed, declined and expired", async () => {
    await openConsole();
    expect(items(children.bandsTitle)).toEqual([
      "13 to 15: 120",
      "16 or 17: 180",
      "18 or over: 500",
      "Not asked (joined before the age question): 400",
      "On behalf of a child (the address is a parent's or guardian's): 34 (child under 13: 30, 13 to 15: 4)",
    ]);
    expect(items(children.requestsTitle)).toEqual([
      "6 requests waiting for a parent's answer, the oldest since 27 Jan 2026, 08:00 UTC.",
      "Today: 2 agreed, 1 said no, none expired without an answer.",
      "In the last 30 days: 34 agreed, 5 said no, 11 expired without an answer.",
    ]);
    expect(within(section(admin.overview.title)).getByText(children.note)).toBeTruthy();
  });

  it("says when no request waits and nothing was answered, and flags an entry under 13 with its own address (which should not exist)", async () => {
    const none = { agreed: 0, declined: 0, expired: 0 };
    routes["GET /api/admin/stats"] = () =>
      jsonResponse(
        200,
        stats({
          total: 3,
          ages: {
            byBand: { under_13: 1, "13_15": 0, "16_17": 0, "18_plus": 2, unknown: 0 },
            onBehalfOfChild: { total: 0, byBand: { under_13: 0, "13_15": 0, "16_17": 0, "18_plus": 0, unknown: 0 } },
          },
          parents: { pending: 0, oldestPendingAt: null, today: none, lastDays: none },
        }),
      );
    await openConsole();
    expect(items(children.bandsTitle)).toEqual([
      "13 to 15: 0",
      "16 or 17: 0",
      "18 or over: 2",
      "Not asked (joined before the age question): 0",
      children.ownUnder13(1),
      "On behalf of a child (the address is a parent's or guardian's): 0",
    ]);
    expect(items(children.requestsTitle)).toEqual([
      "No request is waiting for a parent's answer.",
      "Today: none agreed, none said no, none expired without an answer.",
      "In the last 30 days: none agreed, none said no, none expired without an answer.",
    ]);
  });

  it("the waitlist table shows each entry's age band, country and whether it is a parent's entry for a child", async () => {
    routes["GET /api/admin/waitlist"] = () =>
      jsonResponse(
        200,
        page([
          entry(1, "ada@example.com", { age_band: "16_17", country: "DE" }),
          entry(2, "parent@example.com", { age_band: "under_13", country: "US", on_behalf_of_child: true, referral_code: null }),
          entry(3, "old@example.com", { age_band: "unknown", country: null }),
        ]),
      );
    render(<AdminApp />);
    const table = await screen.findByRole("table", { name: admin.waitlist.caption });
    await within(table).findByRole("rowheader", { name: "parent@example.com" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((cell) => cell.textContent);
    const columns = admin.waitlist.columns;
    const cells = (email: string) => {
      const row = within(table).getByRole("rowheader", { name: email }).closest("tr")!;
      return [columns.ageBand, columns.country, columns.onBehalf].map((header) => row.children[headers.indexOf(header)]!.textContent);
    };
    expect(cells("ada@example.com")).toEqual(["16 or 17", "DE", `—${admin.none}`]);
    expect(cells("parent@example.com")).toEqual(["Under 13", "US", `${admin.waitlist.onBehalf}${admin.waitlist.onBehalfNote}`]);
    expect(cells("old@example.com")).toEqual(["Not asked (joined before the age question)", `—${admin.none}`, `—${admin.none}`]);
  });

  it("the look-up shows the entry's age band, country, on-behalf flag and the consent record: who agreed, and when", async () => {
    const parent = "parent@example.com";
    routes["POST /api/admin/people/lookup"] = () =>
      jsonResponse(200, {
        email: parent,
        waitlist: entry(5, parent, { age_band: "13_15", country: "DE", on_behalf_of_child: true, referral_code: null }),
        submissions: [],
        user: null,
        sign_in_code: null,
        consent: { at: "2026-12-02T08:30:00.000Z", by: parent, on_behalf_of_child: true },
        parental_requests: [{ created_at: "2026-12-03T07:00:00.000Z", age_band: "under_13", country: "US", sent_at: null }],
      } satisfies PersonRecord);
    const user = await openConsole();
    const erasure = section(admin.erasure.title);
    await user.type(within(erasure).getByLabelText(admin.erasure.lookupLabel), parent);
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.lookup }));
    await within(erasure).findByRole("heading", { name: admin.erasure.storedTitle(parent) });
    const field = (label: string) => within(erasure).getByText(label, { selector: "dt" }).nextElementSibling!.textContent;
    expect(field(admin.erasure.fields.age_band)).toBe("13 to 15");
    expect(field(admin.erasure.fields.country)).toBe("DE");
    expect(field(admin.erasure.fields.on_behalf_of_child)).toBe(admin.erasure.onBehalf(true));
    expect(
      within(erasure).getByText(
        `${admin.erasure.fields.consent}: A parent or guardian agreed on 2 Dec 2026, 08:30 UTC, from parent@example.com.`,
      ),
    ).toBeTruthy();
    // Another child's request waiting for the same parent: shown, so an erasure is known to delete it too.
    expect(within(erasure).getByRole("heading", { name: admin.erasure.parentalRequests(1) })).toBeTruthy();
    expect(
      within(erasure).getByText(
        "Made 3 Dec 2026, 07:00 UTC: a child aged under 13, in US; the e-mail has not gone yet. The child's address is not kept.",
      ),
    ).toBeTruthy();
    expect(admin.erasure.consent({ at: "3 Dec 2026, 09:00 UTC", by: "ada@example.com", on_behalf_of_child: false })).toBe(
      "The person joined and confirmed ada@example.com on 3 Dec 2026, 09:00 UTC.",
    );
  });

  it("a parent's address stored only in children's requests waiting for an answer is not 'nothing stored': the requests are shown, and the erasure offered", async () => {
    const parent = "waiting.parent@example.com";
    routes["POST /api/admin/people/lookup"] = () =>
      jsonResponse(200, {
        email: parent,
        waitlist: null,
        submissions: [],
        user: null,
        sign_in_code: null,
        consent: null,
        parental_requests: [
          { created_at: "2026-12-03T07:00:00.000Z", age_band: "under_13", country: "US", sent_at: "2026-12-03T07:00:01.000Z" },
        ],
      } satisfies PersonRecord);
    const user = await openConsole();
    const erasure = section(admin.erasure.title);
    await user.type(within(erasure).getByLabelText(admin.erasure.lookupLabel), parent);
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.lookup }));
    await within(erasure).findByRole("heading", { name: admin.erasure.parentalRequests(1) });
    expect(within(erasure).queryByText(admin.erasure.nothingStored(parent))).toBeNull();
  });
});

describe("erasure", () => {
  const ADDRESS = "Ada+list@Example.com";
  const STORED = "ada+list@example.com";
  const record = (): PersonRecord => ({
    email: STORED,
    waitlist: entry(1, STORED, { utm_medium: "email" }),
    submissions: [message(7, "Ada", STORED, "Please delete my data.")],
    user: {
      id: "user-1",
      email: STORED,
      email_confirmed_at: "2026-01-02T10:00:00.000Z",
      last_sign_in_at: "2026-01-03T10:00:00.000Z",
      user_metadata: {},
      created_at: "2026-01-02T10:00:00.000Z",
      updated_at: "2026-01-03T10:00:00.000Z",
      sessions: [
        {
          id: "s1",
          created_at: "2026-01-03T10:00:00.000Z",
          updated_at: "2026-01-03T10:00:00.000Z",
          refreshed_at: null,
          user_agent: null,
          ip: null,
        },
      ],
    },
    sign_in_code: null,
    consent: { at: "2026-01-30T10:05:00.000Z", by: STORED, on_behalf_of_child: false },
    parental_requests: [],
  });

  it("looks the address up, shows what is stored, erases only after the address is typed again, and shows the counts", async () => {
    let erased = false;
    routes["POST /api/admin/people/lookup"] = () =>
      jsonResponse(
        200,
        erased
          ? { email: STORED, waitlist: null, submissions: [], user: null, sign_in_code: null, consent: null, parental_requests: [] }
          : record(),
      );
    routes["POST /api/admin/people/erase"] = () => {
      erased = true;
      return jsonResponse(200, { waitlist: 1, submissions: 1, users: 1 });
    };
    const user = await openConsole();
    const erasure = section(admin.erasure.title);
    const statsBefore = callsTo("GET", "/api/admin/stats").length;
    const waitlistBefore = callsTo("GET", "/api/admin/waitlist").length;

    // An empty address is refused here.
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.lookup }));
    expect(
      within(erasure)
        .getAllByRole("alert")
        .map((alert) => alert.textContent),
    ).toContain(admin.erasure.addressRequired);
    expect(calls.some((call) => call.url.pathname.startsWith("/api/admin/people/"))).toBe(false);

    await user.type(within(erasure).getByLabelText(admin.erasure.lookupLabel), ` ${ADDRESS} `);
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.lookup }));
    const heading = await within(erasure).findByRole("heading", { name: admin.erasure.storedTitle(STORED) });
    expect(document.activeElement).toBe(heading);
    // The address goes in the body, never in the request's address (which servers log).
    const [lookup] = callsTo("POST", "/api/admin/people/lookup");
    expect(lookup).toBeTruthy();
    expect(JSON.parse(lookup!.body!)).toEqual({ email: ADDRESS });
    expect(lookup!.url.search).toBe("");
    expect(lookup!.authorization).toBe(`Bearer ${TOKEN}`);

    // What is stored: the entry, the message, the account and its session.
    expect(within(erasure).getByRole("heading", { name: admin.erasure.waitlistEntry })).toBeTruthy();
    expect(within(erasure).getByText("Please delete my data.")).toBeTruthy();
    expect(within(erasure).getByRole("heading", { name: admin.erasure.submissions(1) })).toBeTruthy();
    expect(within(erasure).getByRole("heading", { name: admin.erasure.account })).toBeTruthy();
    expect(within(erasure).getByText(admin.erasure.sessions(1))).toBeTruthy();

    // The button works only once the address matches (case and spaces aside).
    const erase = within(erasure).getByRole("button", { name: admin.erasure.erase });
    const confirm = within(erasure).getByLabelText(admin.erasure.confirmLabel(STORED));
    expect(erase.hasAttribute("disabled")).toBe(true);
    await user.type(confirm, "ada@example.com");
    expect(erase.hasAttribute("disabled")).toBe(true);
    await user.click(erase);
    expect(callsTo("POST", "/api/admin/people/erase")).toHaveLength(0);
    await user.clear(confirm);
    await user.type(confirm, "ADA+LIST@example.com ");
    expect(erase.hasAttribute("disabled")).toBe(false);
    await user.click(erase);

    const done = await within(erasure).findByText(admin.erasure.erased(STORED, { waitlist: 1, submissions: 1, users: 1 }));
    expect(document.activeElement).toBe(done);
    const deletes = callsTo("POST", "/api/admin/people/erase");
    expect(deletes).toHaveLength(1);
    expect(JSON.parse(deletes[0]!.body!)).toEqual({ email: STORED });
    expect(deletes[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(within(erasure).queryByRole("button", { name: admin.erasure.erase })).toBeNull();
    // The figures and the lists are loaded again.
    await waitFor(() => expect(callsTo("GET", "/api/admin/stats").length).toBe(statsBefore + 1));
    await waitFor(() => expect(callsTo("GET", "/api/admin/waitlist").length).toBe(waitlistBefore + 1));

    // Looked up again: nothing stored.
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.lookup }));
    await within(erasure).findByText(admin.erasure.nothingStored(STORED));
    expect(within(erasure).queryByRole("button", { name: admin.erasure.erase })).toBeNull();
  });

  it("shows the server's refusal of an erasure (429) and keeps the confirmation", async () => {
    routes["POST /api/admin/people/lookup"] = () => jsonResponse(200, record());
    routes["POST /api/admin/people/erase"] = () => apiError(429, "rate_limited", "Slow down.");
    const user = await openConsole();
    const erasure = section(admin.erasure.title);
    await user.type(within(erasure).getByLabelText(admin.erasure.lookupLabel), `${STORED}{Enter}`);
    await within(erasure).findByRole("heading", { name: admin.erasure.storedTitle(STORED) });
    await user.type(within(erasure).getByLabelText(admin.erasure.confirmLabel(STORED)), STORED);
    await user.click(within(erasure).getByRole("button", { name: admin.erasure.erase }));
    await waitFor(() =>
      expect(
        within(erasure)
          .getAllByRole("alert")
          .map((alert) => alert.textContent),
      ).toContain(admin.errors.tooMany),
    );
    expect(within(erasure).getByRole("button", { name: admin.erasure.erase }).hasAttribute("disabled")).toBe(false);
  });

  it("a failed lookup shows the server's words for a bad request", async () => {
    routes["POST /api/admin/people/lookup"] = () => apiError(400, "invalid_request", "That is not an e-mail address.");
    const user = await openConsole();
    const erasure = section(admin.erasure.title);
    await user.type(within(erasure).getByLabelText(admin.erasure.lookupLabel), "not-an-address{Enter}");
    await waitFor(() =>
      expect(
        within(erasure)
          .getAllByRole("alert")
          .map((alert) => alert.textContent),
      ).toContain(`${admin.errors.badRequest} ${admin.errors.serverSaid("That is not an e-mail address.")}`),
    );
  });
});

describe("holding an entry out of waves and voiding a referral credit in the waitlist (issue 22)", () => {
  const words = admin.waitlist;
  /** ada (41 referrals, 2 voided, held), grace (not held), hedy (whose credit to ada counts) and ivy (whose was voided). */
  function launchDayPage(changed: { held?: boolean; voided?: boolean } = {}) {
    return page([
      entry(1, "ada@example.com", {
        held_at: changed.held === false ? null : "2026-01-31T08:00:00.000Z",
        referrals_voided: changed.voided ? 3 : 2,
      }),
      entry(2, "grace@example.com", { referral_code: "GRC23456" }),
      entry(3, "hedy@example.com", {
        referral_code: "HDY23456",
        referred_by: "ADA23456",
        referrals_confirmed: 0,
        referral_credit: changed.voided ? "voided" : "counted",
      }),
      entry(4, "ivy@example.com", {
        referral_code: "IVY23456",
        referred_by: "ADA23456",
        referrals_confirmed: 0,
        referral_credit: "voided",
      }),
    ]);
  }
  const row = (email: string) =>
    within(screen.getByRole("table", { name: words.caption }))
      .getByRole("rowheader", { name: email })
      .closest("tr")!;
  const cellOf = (email: string, header: string) => {
    const headers = [...within(screen.getByRole("table", { name: words.caption })).getAllByRole("columnheader")].map(
      (cell) => cell.textContent,
    );
    return row(email).children[headers.indexOf(header)] as HTMLElement;
  };

  it("shows who is held out of waves, each credit counted or voided, and the voided of each referrer", async () => {
    routes["GET /api/admin/waitlist"] = () => jsonResponse(200, launchDayPage());
    await openConsole();
    expect(cellOf("ada@example.com", words.columns.waves).textContent).toBe(
      `${words.held}${words.heldSince("31 Jan 2026, 08:00 UTC")}${words.release}`,
    );
    expect(within(cellOf("ada@example.com", words.columns.waves)).getByRole("button").getAttribute("aria-label")).toBe(
      words.releaseLabel("ada@example.com"),
    );
    expect(cellOf("grace@example.com", words.columns.waves).textContent).toBe(words.hold);
    expect(cellOf("ada@example.com", words.columns.referrals).textContent).toBe(`41${words.referralsVoided(2)}`);
    expect(cellOf("hedy@example.com", words.columns.referredBy).textContent).toBe(`ADA23456${words.credit.counted}${words.credit.void}`);
    expect(cellOf("ivy@example.com", words.columns.referredBy).textContent).toBe(`ADA23456${words.credit.voided}`);
    expect(words.referralsVoided(2)).toBe("2 voided");
  });

  it("holds an entry and lets one back (POST …/hold), then loads the list and the figures again", async () => {
    let held = true;
    routes["GET /api/admin/waitlist"] = () => jsonResponse(200, launchDayPage({ held }));
    routes["POST /api/admin/waitlist/1/hold"] = ({ body }) => {
      held = (JSON.parse(body!) as { held: boolean }).held;
      return jsonResponse(200, launchDayPage({ held }).items[0]);
    };
    routes["POST /api/admin/waitlist/2/hold"] = () =>
      jsonResponse(200, entry(2, "grace@example.com", { held_at: "2026-02-01T09:00:00.000Z" }));
    const user = await openConsole();
    const listsBefore = callsTo("GET", "/api/admin/waitlist").length;
    const statsBefore = callsTo("GET", "/api/admin/stats").length;
    const waves = () => cellOf("ada@example.com", words.columns.waves);
    await user.click(within(waves()).getByRole("button", { name: words.releaseLabel("ada@example.com") }));
    // A question first, which takes focus, and a reason for the audit trail: none, and nothing is asked of the server.
    expect(document.activeElement).toBe(within(waves()).getByText(words.releaseConfirm("ada@example.com")));
    await user.click(within(waves()).getByRole("button", { name: words.releaseYes }));
    expect(within(waves()).getByText(words.reasonMissing)).toBeTruthy();
    expect(callsTo("POST", "/api/admin/waitlist/1/hold")).toHaveLength(0);
    await user.type(within(waves()).getByLabelText(words.reason), "Checked: a real school.");
    await user.click(within(waves()).getByRole("button", { name: words.releaseYes }));
    await waitFor(() => expect(waves().textContent).toBe(words.hold));
    expect(JSON.parse(callsTo("POST", "/api/admin/waitlist/1/hold")[0]!.body!)).toEqual({ held: false, reason: "Checked: a real school." });
    expect(callsTo("GET", "/api/admin/waitlist").length).toBeGreaterThan(listsBefore);
    expect(callsTo("GET", "/api/admin/stats").length).toBeGreaterThan(statsBefore);
    expect(within(section(words.title)).getByText(words.released("ada@example.com")).getAttribute("role")).toBe("status");

    const grace = () => cellOf("grace@example.com", words.columns.waves);
    await user.click(within(grace()).getByRole("button", { name: words.holdLabel("grace@example.com") }));
    expect(within(grace()).getByText(words.holdConfirm("grace@example.com"))).toBeTruthy();
    await user.type(within(grace()).getByLabelText(words.reason), "Ring");
    await user.click(within(grace()).getByRole("button", { name: words.holdYes }));
    await waitFor(() => expect(callsTo("POST", "/api/admin/waitlist/2/hold")).toHaveLength(1));
    expect(JSON.parse(callsTo("POST", "/api/admin/waitlist/2/hold")[0]!.body!)).toEqual({ held: true, reason: "Ring" });
    expect(within(section(words.title)).getByText(words.heldDone("grace@example.com")).getAttribute("role")).toBe("status");
  });

  it("voids a credit only after asking (POST …/void-referral), says what it did, and shows the server's refusal", async () => {
    let voided = false;
    routes["GET /api/admin/waitlist"] = () => jsonResponse(200, launchDayPage({ voided }));
    routes["POST /api/admin/waitlist/3/void-referral"] = () => {
      voided = true;
      const [referrer, , friend] = launchDayPage({ voided }).items;
      // The referrer as listed after the void: its place recomputed, which the message gives.
      return jsonResponse(200, { friend: friend!, referrer: { ...referrer!, place: 17 }, boost: 5 } satisfies EntryVoided);
    };
    const user = await openConsole();
    const cell = () => cellOf("hedy@example.com", words.columns.referredBy);
    await user.click(within(cell()).getByRole("button", { name: words.credit.voidLabel("hedy@example.com") }));
    // A question first, which takes focus; "Keep it" asks nothing of the server.
    const question = within(cell()).getByText(words.credit.confirm("ADA23456"));
    expect(document.activeElement).toBe(question);
    await user.click(within(cell()).getByRole("button", { name: words.credit.keep }));
    expect(callsTo("POST", "/api/admin/waitlist/3/void-referral")).toHaveLength(0);
    expect(document.activeElement).toBe(within(cell()).getByRole("button", { name: words.credit.voidLabel("hedy@example.com") }));

    await user.click(within(cell()).getByRole("button", { name: words.credit.voidLabel("hedy@example.com") }));
    await user.type(within(cell()).getByLabelText(words.reason), "Same network, same minute");
    await user.click(within(cell()).getByRole("button", { name: words.credit.yes }));
    await waitFor(() => expect(cell().textContent).toBe(`ADA23456${words.credit.voided}`));
    expect(callsTo("POST", "/api/admin/waitlist/3/void-referral").map((call) => JSON.parse(call.body!))).toEqual([
      { reason: "Same network, same minute" },
    ]);
    expect(
      within(section(words.title))
        .getByText(words.credit.done("hedy@example.com", "ADA23456", 5, 17))
        .getAttribute("role"),
    ).toBe("status");
    expect(words.credit.done("hedy@example.com", "ADA23456", 5, 17)).toBe(
      "The referral credit of hedy@example.com is void: ADA23456 lost the referral and 5 places (now #17).",
    );
    expect(cellOf("ada@example.com", words.columns.referrals).textContent).toBe(`41${words.referralsVoided(3)}`);

    // Refused (voided meanwhile elsewhere): the server's words, and nothing else changes.
    voided = false;
    routes["POST /api/admin/waitlist/3/void-referral"] = () =>
      apiError(409, "no_referral_credit", "This entry gave no referral credit that still counts.");
    await user.click(within(section(words.title)).getByRole("button", { name: admin.table.searchButton }));
    await waitFor(() => expect(cell().textContent).toBe(`ADA23456${words.credit.counted}${words.credit.void}`));
    await user.click(within(cell()).getByRole("button", { name: words.credit.voidLabel("hedy@example.com") }));
    await user.type(within(cell()).getByLabelText(words.reason), "Ring");
    await user.click(within(cell()).getByRole("button", { name: words.credit.yes }));
    await waitFor(() =>
      expect(
        within(section(words.title))
          .getAllByRole("alert")
          .map((alert) => alert.textContent),
      ).toContain(`${admin.errors.conflict} ${admin.errors.serverSaid("This entry gave no referral credit that still counts.")}`),
    );
  });
});
