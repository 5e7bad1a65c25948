/// <reference types="node" />
/**
 * "My place" (/#/me, issue 16) against a mocked /api/me: each status, each action (join, resend,
 * leave with its confirm step, download, delete everything with its typed confirmation), errors,
 * a lost sign-in (401), where focus goes, and the header's address that links to it. The page's
 * code is a lazily loaded chunk: it is never imported by the app's start (checked on the import
 * graph here; the built sizes are the build's to report).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { App } from "../../web/src/App";
import { loginHref, returnPathOfHash, ROUTES } from "../../web/src/routes";
import { AGE_MESSAGES, AGE_QUESTION_YEARS } from "@shared/age";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH } from "@shared/for-parents";
import type { MeAnswer } from "@shared/me";
import { apiError, deferred, jsonResponse } from "./helpers";

type Session = { access_token: string; user: { email: string } };
type Listener = (event: string, session: Session | null) => void;

/** auth-js as the page uses it: the stored session, a refresh, sign-out and its events. */
const auth = vi.hoisted(() => {
  const listeners = new Set<Listener>();
  const state: { session: Session | null; refreshed: Session | null } = { session: null, refreshed: null };
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
      window.localStorage.removeItem("hwh-auth");
      for (const listener of [...listeners]) listener("SIGNED_OUT", null);
      return { error: null };
    }),
    onAuthStateChange(listener: Listener) {
      listeners.add(listener);
      return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
    },
  };
  return { client, state, listeners };
});

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: async () => auth.client,
  onAuthClientLoaded: (listener: (client: unknown) => void) => {
    listener(auth.client);
    return () => {};
  },
}));

const saved = vi.hoisted(() => ({ files: [] as { blob: Blob; fileName: string }[] }));
vi.mock("../../web/src/admin/download", () => ({
  saveFile: (blob: Blob, fileName: string) => saved.files.push({ blob, fileName }),
}));

const EMAIL = "ada@example.com";
const TOKEN = "access-token";

function signIn(email = EMAIL, token = TOKEN) {
  auth.state.session = { access_token: token, user: { email } };
  window.localStorage.setItem("hwh-auth", JSON.stringify({ access_token: token, refresh_token: "r", user: { email } }));
}

// Times are shown in the visitor's own zone (issue 22): this file's visitor is in UTC unless a test
// says otherwise (Node takes a new TZ at once, for Date and Intl alike).
const MACHINE_TZ = process.env.TZ;
afterAll(() => {
  if (MACHINE_TZ === undefined) Reflect.deleteProperty(process.env, "TZ");
  else process.env.TZ = MACHINE_TZ;
});

beforeEach(() => {
  process.env.TZ = "UTC";
  auth.state.session = null;
  auth.state.refreshed = null;
  auth.listeners.clear();
  auth.client.signOut.mockClear();
  auth.client.refreshSession.mockClear();
  saved.files = [];
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "share");
  Reflect.deleteProperty(navigator, "clipboard");
});

// ---------------------------------------------------------------------------------------------
// The API

const ADULT_ENTRY = { age_band: "18_plus", on_behalf_of_child: false } as const;

function answer(overrides: Partial<MeAnswer> & { age_band?: string | null; on_behalf_of_child?: boolean } = {}): MeAnswer {
  return {
    email: EMAIL,
    status: "none",
    position: null,
    referral_code: null,
    referral_link: null,
    referrals_pending: 0,
    referrals_confirmed: 0,
    joined_at: null,
    confirmed_at: null,
    share: { text: "I'm on the Homework Helper waitlist. Join with my link:" },
    referral_boost: 5,
    invited_at: null,
    invited_by: null,
    subscription: { subscribed: true, unsubscribed_at: null, reason: null },
    // Issue 23's fields (worker/shared/me.ts), spread so this file reads either shape of the type.
    ...ADULT_ENTRY,
    ...overrides,
  };
}

const PENDING = answer({ status: "pending", joined_at: "2026-11-20T09:30:00.000Z" });
const CONFIRMED = answer({
  status: "confirmed",
  position: 1234,
  referral_code: "K7M2QX9P",
  referral_link: "https://homeworkhelper.app/?ref=K7M2QX9P",
  referrals_pending: 2,
  referrals_confirmed: 3,
  joined_at: "2026-11-20T09:30:00.000Z",
  confirmed_at: "2026-11-20T09:45:00.000Z",
});

type Call = { method: string; url: string; authorization: string | null; body: unknown };
type Handler = (call: Call) => Response | Promise<Response>;

/** fetch, answered per "METHOD /path" (anything else fails the test); every call is recorded. */
function serve(handlers: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    const call = { method, url, authorization: headers.get("Authorization"), body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const handler = handlers[`${method} ${url}`];
    if (!handler) throw new Error(`Unexpected request ${method} ${url}`);
    return handler(call);
  });
  return calls;
}

function renderMe() {
  window.history.replaceState(null, "", `/#${ROUTES.me}`);
  const user = userEvent.setup();
  render(<App />);
  return { user };
}

const main = () => within(screen.getByRole("main"));

/** The one-click join's age question (issue 23), answered as an adult or with `month` and `year` (option texts). */
async function answerAge(user: ReturnType<typeof userEvent.setup>, month = "January", year = "1990") {
  await user.selectOptions(main().getByRole("combobox", { name: "Month" }), month);
  await user.selectOptions(main().getByRole("combobox", { name: "Year" }), year);
}
const statusHeading = () => main().getByRole("heading", { level: 2, name: "Waitlist status" });
const fact = (term: string) => {
  const dt = main()
    .getAllByRole("term")
    .find((element) => element.textContent === term);
  return dt?.nextElementSibling?.textContent ?? null;
};

// ---------------------------------------------------------------------------------------------

describe("My place: signed out", () => {
  it("asks to sign in with a link that comes back to /#/me, and asks the API nothing", async () => {
    const calls = serve({});
    renderMe();

    expect(main().getByRole("heading", { level: 1, name: "My place" })).toBeTruthy();
    const link = await main().findByRole("link", { name: "Sign in" });
    expect(link.getAttribute("href")).toBe("/#/login?next=%2Fme");
    expect(loginHref(ROUTES.me)).toBe("/#/login?next=%2Fme");
    // The sign-in page accepts it as where to return.
    expect(returnPathOfHash("#/login?next=%2Fme")).toBe("/me");
    expect(calls).toEqual([]);
    expect(document.title).toBe("My place | Homework Helper");
  });
});

describe("the header", () => {
  it("links the signed-in address to /#/me", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, answer()) });
    window.history.replaceState(null, "", "/#/");
    const user = userEvent.setup();
    render(<App />);

    const link = within(screen.getByRole("banner")).getByRole("link", { name: `My place: signed in as ${EMAIL}` });
    expect(link.getAttribute("href")).toBe("#/me");
    await user.click(link);

    expect(window.location.hash).toBe("#/me");
    // A route change focuses the new page's heading; it stays the same element while the page's code arrives.
    const heading = main().getByRole("heading", { level: 1, name: "My place" });
    expect(document.activeElement).toBe(heading);
    await main().findByText("Not on the waitlist");
    expect(document.activeElement).toBe(heading);
  });
});

describe("My place: each status", () => {
  it("not on the list: says so, with Bearer auth, and joins with one click (confirmed at once)", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () => jsonResponse(200, { ...CONFIRMED, referrals_pending: 0, referrals_confirmed: 0 }),
    });
    const { user } = renderMe();

    expect(await main().findByText("Not on the waitlist")).toBeTruthy();
    expect(main().getByText(`${EMAIL} is not on the waitlist.`)).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: "GET", url: "/api/me", authorization: `Bearer ${TOKEN}` });
    // Nothing to leave.
    expect(main().queryByRole("button", { name: "Leave the waitlist" })).toBeNull();

    await answerAge(user);
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(fact("Status")).toBe("Confirmed");
    expect(main().getByText("You're on the waitlist, and your place is confirmed.").getAttribute("role")).toBe("status");
    expect(calls[1]).toMatchObject({ method: "POST", url: "/api/me/waitlist", authorization: `Bearer ${TOKEN}` });
    // With the age question's answer (issue 23).
    expect(calls[1]!.body).toEqual({ birth_month: 1, birth_year: 1990 });
    expect(document.activeElement).toBe(statusHeading());
  });

  it("waiting for confirmation: says so with the joined time, and resends the confirmation", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, PENDING),
      "POST /api/me/confirmation": () => jsonResponse(200, { sent: true }),
    });
    const { user } = renderMe();

    expect(await main().findByText("Waiting for confirmation")).toBeTruthy();
    expect(main().getByText(/We sent a confirmation e-mail to ada@example.com/)).toBeTruthy();
    const joined = main().getByText((_, element) => element?.tagName === "TIME");
    expect(joined.getAttribute("datetime")).toBe(PENDING.joined_at);
    expect(joined.textContent).toBe("20 November 2026, 09:30 UTC");
    expect(fact("Confirmed")).toBeNull();
    expect(main().queryByText(/^You're #/)).toBeNull();

    const resend = main().getByRole("button", { name: "Resend the confirmation e-mail" });
    await user.click(resend);

    expect(await main().findByText(/Sent. Check your inbox/)).toBeTruthy();
    expect(calls[1]).toMatchObject({ method: "POST", url: "/api/me/confirmation", authorization: `Bearer ${TOKEN}` });
    // The button that was pressed keeps focus.
    expect(document.activeElement).toBe(resend);
  });

  it("confirmed: the place, the referral link with Copy, the share links, the friends, the rule, both times", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, CONFIRMED) });
    const { user } = renderMe();
    // After user-event's setup, which puts a clipboard of its own in place.
    const writeText = vi.fn(async (_text: string) => {});
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(fact("Status")).toBe("Confirmed");
    expect(
      main()
        .getAllByText((_, element) => element?.tagName === "TIME")
        .map((time) => time.getAttribute("datetime")),
    ).toEqual([CONFIRMED.joined_at, CONFIRMED.confirmed_at]);
    // The e-mails' date style, in the visitor's zone (UTC here) and said so (not the browser's "Nov 20, 2026, 9:30 AM").
    expect(fact("Joined")).toBe("20 November 2026, 09:30 UTC");
    expect(fact("Confirmed")).toBe("20 November 2026, 09:45 UTC");
    expect(main().getByText("Each friend who joins with your link and confirms moves you up 5 places.")).toBeTruthy();
    expect(fact("Friends waiting to confirm")).toBe("2");
    expect(fact("Friends confirmed")).toBe("3");

    const field = main().getByRole<HTMLInputElement>("textbox", { name: "Your referral link" });
    expect(field.value).toBe(CONFIRMED.referral_link);
    expect(field.readOnly).toBe(true);

    const link = encodeURIComponent(CONFIRMED.referral_link!);
    const hrefs = Object.fromEntries(
      ["WhatsApp", "Telegram", "X", "E-mail"].map((name) => [name, main().getByRole("link", { name }).getAttribute("href")]),
    );
    expect(hrefs.WhatsApp).toBe(`https://wa.me/?text=${encodeURIComponent(`${CONFIRMED.share.text} ${CONFIRMED.referral_link}`)}`);
    expect(hrefs.Telegram).toBe(`https://t.me/share/url?url=${link}&text=${encodeURIComponent(CONFIRMED.share.text)}`);
    expect(hrefs.X).toBe(`https://x.com/intent/post?text=${encodeURIComponent(CONFIRMED.share.text)}&url=${link}`);
    expect(hrefs["E-mail"]).toMatch(/^mailto:\?subject=/);
    expect(main().getByRole("link", { name: "WhatsApp" }).getAttribute("rel")).toBe("noopener noreferrer");
    // No Web Share API in this browser: no Share button, the links are the way.
    expect(main().queryByRole("button", { name: "Share" })).toBeNull();

    await user.click(main().getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith(CONFIRMED.referral_link);
    expect(await main().findByText("Copied!")).toBeTruthy();
  });

  it("confirmed, where the browser can share: a Share button that hands the link to the Web Share API", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, CONFIRMED) });
    const share = vi.fn(async (_data: ShareData) => {});
    Object.defineProperty(navigator, "share", { configurable: true, value: share });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ text: CONFIRMED.share.text, url: CONFIRMED.referral_link }));
  });

  it("confirmed, where the browser refuses to copy: the link is selected and the page says how to copy it", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, CONFIRMED) });
    const { user } = renderMe();
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async () => Promise.reject(new Error("denied")) },
    });

    await user.click(await main().findByRole("button", { name: "Copy" }));
    expect(await main().findByText(/to copy the selected link/)).toBeTruthy();
    expect(document.activeElement).toBe(main().getByRole("textbox", { name: "Your referral link" }));
  });
});

describe("My place: the age question and what an entry's age changes (issue 23)", () => {
  const month = () => main().getByRole("combobox", { name: "Month" }) as HTMLSelectElement;
  const year = () => main().getByRole("combobox", { name: "Year" }) as HTMLSelectElement;
  const description = (element: HTMLElement) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ");

  it("the one-click join asks the neutral question, nothing chosen, and sends nothing until it is answered", async () => {
    signIn();
    const calls = serve({ "GET /api/me": () => jsonResponse(200, answer()) });
    const { user } = renderMe();

    const join = await main().findByRole("button", { name: "Join the waitlist" });
    const question = main().getByRole("group", { name: AGE_MESSAGES.question });
    expect(within(question).getByText(AGE_MESSAGES.why)).toBeTruthy();
    expect([month().value, year().value]).toEqual(["", ""]);
    expect(year().options).toHaveLength(1 + AGE_QUESTION_YEARS + 1);
    // No hint before the answer (the neutral "For parents" link aside).
    expect(screen.getByRole("main").textContent?.replace(FOR_PARENTS_LINK, "")).not.toMatch(/parent|guardian|\b13\b/i);
    expect(main().getByRole("link", { name: FOR_PARENTS_LINK }).getAttribute("href")).toBe(FOR_PARENTS_PATH);

    await user.click(join);

    expect(month().getAttribute("aria-invalid")).toBe("true");
    expect(description(month())).toContain(AGE_MESSAGES.birthMissing);
    expect(document.activeElement).toBe(month());
    await user.selectOptions(month(), "May");
    await user.click(join);
    expect(year().getAttribute("aria-invalid")).toBe("true");
    expect(month().getAttribute("aria-invalid")).toBeNull();
    expect(document.activeElement).toBe(year());
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);
  });

  it("shows the server's 400 for birth_year at the year select", async () => {
    signIn();
    const message = AGE_MESSAGES.birthImpossible;
    serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () =>
        jsonResponse(400, { error: { code: "validation_failed", message, field: "birth_year", fields: { birth_year: message } } }),
    });
    const { user } = renderMe();

    await main().findByRole("button", { name: "Join the waitlist" });
    await answerAge(user);
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    await waitFor(() => expect(year().getAttribute("aria-invalid")).toBe("true"));
    expect(description(year())).toContain(message);
    await waitFor(() => expect(document.activeElement).toBe(year()));
    expect(fact("Status")).toBe("Not on the waitlist");
  });

  it("below the consent age (400 parent_needed): says a parent or guardian decides first, where, focus on it", async () => {
    signIn();
    serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () =>
        jsonResponse(400, {
          error: {
            code: "parent_needed",
            message: AGE_MESSAGES.parentNeeded,
            field: "parent_email",
            fields: { parent_email: AGE_MESSAGES.parentNeeded },
          },
        }),
    });
    const { user } = renderMe();

    await main().findByRole("button", { name: "Join the waitlist" });
    await answerAge(user, "March", String(new Date().getUTCFullYear() - 12));
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    const said = (await main().findByText(AGE_MESSAGES.parentNeeded)).closest<HTMLElement>(".waitlist__parent")!;
    expect(within(said).getByText(/waitlist form on the home page/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(said));
    expect(main().queryByRole("button", { name: "Join the waitlist" })).toBeNull();
    expect(fact("Status")).toBe("Not on the waitlist");
  });

  it("a signed-in child (400 parent_needed, signed_out): signed out here, the parent path and what was deleted, never the address", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () =>
        jsonResponse(400, {
          error: {
            code: "parent_needed",
            message: AGE_MESSAGES.parentNeeded,
            field: "parent_email",
            fields: { parent_email: AGE_MESSAGES.parentNeeded },
            signed_out: true,
          },
        }),
    });
    const { user } = renderMe();

    await main().findByRole("button", { name: "Join the waitlist" });
    await answerAge(user, "March", String(new Date().getUTCFullYear() - 12));
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    const heading = await main().findByRole("heading", { level: 2, name: AGE_MESSAGES.parentNeeded });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(auth.client.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(main().getByRole("status").textContent).toBe("We deleted the sign-in we had for this email address, and you're signed out.");
    expect(main().getByText(/waitlist form on the home page/)).toBeTruthy();
    expect(main().getByRole("link", { name: "Go to the waitlist form" }).getAttribute("href")).toBe("#/");
    expect(screen.getByRole("main").textContent).not.toContain(EMAIL);
    expect(main().queryByRole("button", { name: "Join the waitlist" })).toBeNull();
    // The session is over: the header offers Login again.
    expect(within(screen.getByRole("banner")).getByRole("link", { name: "Login" })).toBeTruthy();
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(1);
  });

  it("a signed-in child whose sign-out fails on this device: the failure is logged, the same view", async () => {
    signIn();
    const failure = new Error("storage unavailable");
    auth.client.signOut.mockRejectedValueOnce(failure);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () =>
        jsonResponse(400, { error: { code: "parent_needed", message: AGE_MESSAGES.parentNeeded, signed_out: true } }),
    });
    const { user } = renderMe();

    await main().findByRole("button", { name: "Join the waitlist" });
    await answerAge(user, "March", String(new Date().getUTCFullYear() - 12));
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    expect(await main().findByRole("heading", { level: 2, name: AGE_MESSAGES.parentNeeded })).toBeTruthy();
    expect(logged).toHaveBeenCalledWith("Signing out after the erasure failed.", failure);
    logged.mockRestore();
  });

  it("a minor's entry without a boost (referral_boost 0): the link and share buttons, no 'move up N places'", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, { ...CONFIRMED, referral_boost: 0, age_band: "13_15" }) });
    const { user } = renderMe();

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(main().getByRole<HTMLTextAreaElement>("textbox", { name: "Your referral link" }).value).toBe(CONFIRMED.referral_link);
    expect(main().getByRole("link", { name: "WhatsApp" })).toBeTruthy();
    expect(main().getByRole("heading", { name: "Bring your friends" })).toBeTruthy();
    expect(main().queryByRole("heading", { name: "Move up the line" })).toBeNull();
    expect(main().queryByText(/move(s)? (you )?up/i)).toBeNull();

    await user.click(main().getByRole("button", { name: "Leave the waitlist" }));
    expect(main().getByText("Leave the waitlist? You lose your place in line.")).toBeTruthy();
    expect(main().queryByText(/move(s)? (you )?up/i)).toBeNull();
  });

  it("an entry a parent made for their child: its place, no referral link and no share box at all", async () => {
    signIn();
    serve({
      "GET /api/me": () =>
        jsonResponse(200, {
          ...CONFIRMED,
          referral_code: null,
          referral_link: null,
          referral_boost: 0,
          on_behalf_of_child: true,
          age_band: "under_13",
        }),
    });
    renderMe();

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(main().getByText("You joined this waitlist on behalf of your child.")).toBeTruthy();
    expect(main().queryByRole("textbox", { name: "Your referral link" })).toBeNull();
    expect(main().queryByRole("button", { name: "Copy" })).toBeNull();
    expect(main().queryByRole("link", { name: "WhatsApp" })).toBeNull();
    expect(main().queryByText(/Friends (waiting|confirmed)/)).toBeNull();
    expect(main().queryByText(/move(s)? (you )?up/i)).toBeNull();
  });
});

describe("My place: actions", () => {
  it("resend over the daily cap: the wait the server states, at the button", async () => {
    signIn();
    serve({
      "GET /api/me": () => jsonResponse(200, PENDING),
      "POST /api/me/confirmation": () => jsonResponse(429, { error: { code: "rate_limited", message: "Too many", retry_after: 7200 } }),
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Resend the confirmation e-mail" }));

    const alert = await main().findByText("Too many attempts. Please try again in 2 hours.");
    expect(alert.getAttribute("role")).toBe("alert");
  });

  it("resend after the entry was confirmed elsewhere: the page shows it confirmed", async () => {
    signIn();
    let confirmed = false;
    serve({
      "GET /api/me": () => jsonResponse(200, confirmed ? CONFIRMED : PENDING),
      "POST /api/me/confirmation": () => {
        confirmed = true;
        return apiError(409, "not_pending", "Nothing to confirm.");
      },
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Resend the confirmation e-mail" }));

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(main().getByText("Your place is already confirmed.")).toBeTruthy();
  });

  it("leave: asks first (focus on the question), Cancel changes nothing, Yes leaves", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, CONFIRMED),
      "DELETE /api/me/waitlist": () => jsonResponse(200, answer()),
    });
    const { user } = renderMe();

    const leave = await main().findByRole("button", { name: "Leave the waitlist" });
    await user.click(leave);
    const question = main().getByText(/^Leave the waitlist\? You lose your place/);
    expect(document.activeElement).toBe(question);

    await user.click(main().getByRole("button", { name: "Cancel" }));
    expect(main().queryByText(/^Leave the waitlist\?/)).toBeNull();
    expect(document.activeElement).toBe(main().getByRole("button", { name: "Leave the waitlist" }));
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);

    await user.click(main().getByRole("button", { name: "Leave the waitlist" }));
    await user.click(main().getByRole("button", { name: "Yes, leave the waitlist" }));

    expect(await main().findByText("You've left the waitlist. You can join again at any time.")).toBeTruthy();
    expect(fact("Status")).toBe("Not on the waitlist");
    expect(main().getByRole("button", { name: "Join the waitlist" })).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({ method: "DELETE", url: "/api/me/waitlist", authorization: `Bearer ${TOKEN}` });
    expect(document.activeElement).toBe(statusHeading());
  });

  it("download my data: GET /api/me/data saved as a JSON file", async () => {
    signIn();
    // The readable file (worker/shared/my-data.ts), indented by the worker: saved byte for byte.
    const text = `${JSON.stringify({ "about this file": { "what this is": "Everything…" }, "your email address": EMAIL }, null, 2)}\n`;
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, CONFIRMED),
      "GET /api/me/data": () => new Response(text, { status: 200, headers: { "Content-Type": "application/json; charset=UTF-8" } }),
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Download my data" }));

    expect(await main().findByText("Your data was downloaded.")).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({ method: "GET", url: "/api/me/data", authorization: `Bearer ${TOKEN}` });
    expect(saved.files).toHaveLength(1);
    expect(saved.files[0]!.fileName).toBe("homework-helper-my-data.json");
    expect(saved.files[0]!.blob.type).toBe("application/json");
    expect(await saved.files[0]!.blob.text()).toBe(text);
  });

  it("delete everything: the address typed again; a wrong one asks nothing; then erased, signed out, and said", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, CONFIRMED),
      "DELETE /api/me": () => jsonResponse(200, { waitlist: 1, submissions: 0, users: 1 }),
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Delete everything…" }));
    const field = main().getByRole("textbox", { name: `Type your e-mail address (${EMAIL}) to confirm` });
    expect(document.activeElement).toBe(field);

    await user.type(field, "someone@example.com");
    await user.click(main().getByRole("button", { name: "Delete everything" }));

    expect(main().getByText("The address you typed is not the one you're signed in with.")).toBeTruthy();
    expect(field.getAttribute("aria-invalid")).toBe("true");
    expect(field.getAttribute("aria-describedby")).toBe(main().getByText(/not the one you're signed in with/).id);
    expect(document.activeElement).toBe(field);
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);

    await user.clear(field);
    await user.type(field, " Ada@Example.com ");
    expect(field.getAttribute("aria-invalid")).toBeNull();
    await user.click(main().getByRole("button", { name: "Delete everything" }));

    const done = await main().findByRole("heading", { level: 2, name: "Everything is deleted" });
    expect(calls.at(-1)).toMatchObject({
      method: "DELETE",
      url: "/api/me",
      authorization: `Bearer ${TOKEN}`,
      body: { confirm: "Ada@Example.com" },
    });
    expect(auth.client.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(document.activeElement).toBe(done);
    expect(main().getByText(/you've been signed out/)).toBeTruthy();
    // The session is over: the header offers Login again, and the page still says what happened.
    expect(within(screen.getByRole("banner")).getByRole("link", { name: "Login" })).toBeTruthy();
    expect(main().getByRole("link", { name: "Back to the home page" }).getAttribute("href")).toBe("#/");
  });

  it("delete everything: Cancel closes the form with focus back on its button; a server refusal of the address is said at the field", async () => {
    signIn();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, PENDING),
      "DELETE /api/me": () => apiError(400, "confirmation_mismatch", "The address does not match."),
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Delete everything…" }));
    await user.click(main().getByRole("button", { name: "Cancel" }));
    expect(document.activeElement).toBe(main().getByRole("button", { name: "Delete everything…" }));

    await user.click(main().getByRole("button", { name: "Delete everything…" }));
    const field = main().getByRole("textbox", { name: /Type your e-mail address/ });
    expect((field as HTMLInputElement).value).toBe("");
    await user.type(field, EMAIL);
    await user.click(main().getByRole("button", { name: "Delete everything" }));

    expect(await main().findByText("The address you typed is not the one you're signed in with.")).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(calls.filter((call) => call.method === "DELETE")).toHaveLength(1);
    expect(auth.client.signOut).not.toHaveBeenCalled();
  });

  it("buttons wait while a request is in flight", async () => {
    signIn();
    const leaving = deferred<Response>();
    serve({
      "GET /api/me": () => jsonResponse(200, PENDING),
      "DELETE /api/me/waitlist": () => leaving.promise,
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Leave the waitlist" }));
    await user.click(main().getByRole("button", { name: "Yes, leave the waitlist" }));

    expect(main().getByRole<HTMLButtonElement>("button", { name: "Leaving…" }).disabled).toBe(true);
    expect(main().getByRole<HTMLButtonElement>("button", { name: "Resend the confirmation e-mail" }).disabled).toBe(true);
    expect(main().getByRole<HTMLButtonElement>("button", { name: "Download my data" }).disabled).toBe(true);
    await act(async () => leaving.resolve(jsonResponse(200, answer())));
    expect(await main().findByText("Not on the waitlist")).toBeTruthy();
  });
});

describe("My place: e-mail from us (issue 17)", () => {
  const subscriptionHeading = () => main().getByRole("heading", { level: 2, name: "E-mail from us" });
  const section = () => within(subscriptionHeading().closest("section")!);

  it("subscribed: says so, and Unsubscribe posts {subscribed: false}, then shows since when and Subscribe again", async () => {
    signIn();
    const off = answer({
      ...CONFIRMED,
      subscription: { subscribed: false, unsubscribed_at: "2026-11-25T08:00:00.000Z", reason: "unsubscribed" },
    });
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, CONFIRMED),
      "POST /api/me/subscription": () => jsonResponse(200, off),
    });
    const { user } = renderMe();

    await main().findByRole("heading", { level: 2, name: "E-mail from us" });
    expect(fact("Launch news and invitations")).toBe("Subscribed");
    expect(section().getByText("Sign-in codes and other e-mails you ask for arrive either way.")).toBeTruthy();
    await user.click(section().getByRole("button", { name: "Unsubscribe" }));

    expect(await section().findByText("You're unsubscribed. You can subscribe again at any time.")).toBeTruthy();
    // Focus is not dropped to the page when the button is disabled and changes: it is on what was done.
    expect(document.activeElement).toBe(section().getByRole("status"));
    expect(calls.at(-1)).toEqual({
      method: "POST",
      url: "/api/me/subscription",
      authorization: `Bearer ${TOKEN}`,
      body: { subscribed: false },
    });
    expect(fact("Launch news and invitations")).toBe("Unsubscribed");
    expect(fact("Since")).toBe("25 November 2026, 08:00 UTC");
    expect(section().getByText("You unsubscribed, so we send you no launch news or invitations.")).toBeTruthy();
    expect(section().getByRole("button", { name: "Subscribe again" })).toBeTruthy();
  });

  it("unsubscribed (or bounced): Subscribe again posts {subscribed: true}; the button waits while it runs", async () => {
    signIn();
    const bounced = answer({ subscription: { subscribed: false, unsubscribed_at: "2026-11-25T08:00:00.000Z", reason: "bounced" } });
    const reply = deferred<Response>();
    const calls = serve({
      "GET /api/me": () => jsonResponse(200, bounced),
      "POST /api/me/subscription": () => reply.promise,
    });
    const { user } = renderMe();

    expect(await main().findByText(/could not be delivered, so we stopped sending/)).toBeTruthy();
    await user.click(section().getByRole("button", { name: "Subscribe again" }));
    const waiting = section().getByRole("button", { name: "Subscribing…" }) as HTMLButtonElement;
    expect(waiting.disabled).toBe(true);
    await act(async () => reply.resolve(jsonResponse(200, answer())));

    expect(await section().findByText("You're subscribed again: your invitation will reach you.")).toBeTruthy();
    expect(calls.at(-1)?.body).toEqual({ subscribed: true });
    expect(fact("Launch news and invitations")).toBe("Subscribed");
    expect(section().getByRole("button", { name: "Unsubscribe" })).toBeTruthy();
    expect(document.activeElement).toBe(section().getByRole("status"));
  });

  it("a failure is said in the block, with focus back on its button, and nothing changes on the page", async () => {
    signIn();
    serve({
      "GET /api/me": () => jsonResponse(200, CONFIRMED),
      "POST /api/me/subscription": () => apiError(500, "internal_error", "boom"),
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { user } = renderMe();

    await main().findByRole("heading", { level: 2, name: "E-mail from us" });
    await user.click(section().getByRole("button", { name: "Unsubscribe" }));
    await waitFor(() => expect(section().getByRole("alert").textContent).toBe("Something went wrong on our side. Please try again."));
    expect(fact("Launch news and invitations")).toBe("Subscribed");
    await waitFor(() => expect(document.activeElement).toBe(section().getByRole("button", { name: "Unsubscribe" })));
  });
});

describe("My place: invited by an invite wave (issue 17)", () => {
  const INVITED = answer({
    ...CONFIRMED,
    invited_at: "2026-11-25T04:10:00.000Z",
    invited_by: { subject: "You're in: Homework Helper is open", sent_at: "2026-11-25T04:12:09.000Z" },
  });
  const subscription = () => within(main().getByRole("heading", { level: 2, name: "E-mail from us" }).closest("section")!);

  it('says "You\'re invited" with the date and the e-mail to look for, instead of the place and the line-jumping pitch; the link stays', async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, INVITED) });
    renderMe();

    expect(await main().findByText("You're invited")).toBeTruthy();
    expect(fact("Status")).toBe("Invited");
    expect(fact("Invited")).toBe("25 November 2026, 04:10 UTC");
    expect(main().getByText("Homework Helper is open to you.")).toBeTruthy();
    expect(
      main().getByText('Look for our e-mail "You\'re in: Homework Helper is open", sent on 25 November 2026, 04:12 UTC.'),
    ).toBeTruthy();
    expect(main().queryByText(/in line/)).toBeNull();
    expect(main().queryByText(/Move up|moves you up/)).toBeNull();
    // The referral link is still there, to bring friends.
    expect(main().getByRole("heading", { level: 3, name: "Bring your friends" })).toBeTruthy();
    expect(main().getByRole<HTMLTextAreaElement>("textbox", { name: "Your referral link" }).value).toBe(CONFIRMED.referral_link);
    // No invitation promised to someone who has it.
    expect(fact("Launch news and updates")).toBe("Subscribed");
    expect(subscription().getByText("We'll send you launch news and updates.")).toBeTruthy();
    expect(subscription().queryByText(/invitation/)).toBeNull();
  });

  it("invited, the e-mail not sent to this address: no e-mail to look for; unsubscribed and back, no invitation promised", async () => {
    signIn();
    const notSent = answer({ ...INVITED, invited_by: null });
    const off = answer({
      ...notSent,
      subscription: { subscribed: false, unsubscribed_at: "2026-11-25T08:00:00.000Z", reason: "unsubscribed" },
    });
    serve({ "GET /api/me": () => jsonResponse(200, off), "POST /api/me/subscription": () => jsonResponse(200, notSent) });
    const { user } = renderMe();

    expect(await main().findByText("You're invited")).toBeTruthy();
    expect(main().queryByText(/Look for our e-mail/)).toBeNull();
    expect(subscription().getByText("You unsubscribed, so we send you no launch news or updates.")).toBeTruthy();
    await user.click(subscription().getByRole("button", { name: "Subscribe again" }));
    expect(await subscription().findByText("You're subscribed again: we'll send you launch news and updates.")).toBeTruthy();
    expect(subscription().queryByText(/invitation/)).toBeNull();
  });
});

describe("My place: times in the visitor's own time zone (issue 22)", () => {
  const LATE = answer({ ...CONFIRMED, joined_at: "2026-11-20T23:30:00.000Z", confirmed_at: "2026-07-01T09:45:00.000Z" });
  const INVITED = answer({
    ...CONFIRMED,
    invited_at: "2026-11-25T04:10:00.000Z",
    invited_by: { subject: "You're in: Homework Helper is open", sent_at: "2026-11-25T04:12:09.000Z" },
  });

  it("a student in Germany: Berlin's time, named, the date Berlin's too (a join at 23:30 UTC is the next day there), summer time in summer", async () => {
    process.env.TZ = "Europe/Berlin";
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, LATE) });
    renderMe();

    expect(await main().findByText("You're #1,234 in line")).toBeTruthy();
    expect(fact("Joined")).toBe("21 November 2026, 00:30 CET");
    expect(fact("Confirmed")).toBe("1 July 2026, 11:45 CEST");
    // The machine-readable time stays the exact instant.
    expect(
      main()
        .getAllByText((_, element) => element?.tagName === "TIME")[0]
        ?.getAttribute("datetime"),
    ).toBe(LATE.joined_at);
  });

  it("a student in Spain: Madrid's time for the invitation and the e-mail to look for", async () => {
    process.env.TZ = "Europe/Madrid";
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, INVITED) });
    renderMe();

    expect(await main().findByText("You're invited")).toBeTruthy();
    expect(fact("Joined")).toBe("20 November 2026, 10:30 CET");
    expect(fact("Invited")).toBe("25 November 2026, 05:10 CET");
    expect(
      main().getByText('Look for our e-mail "You\'re in: Homework Helper is open", sent on 25 November 2026, 05:12 CET.'),
    ).toBeTruthy();
  });

  it("a zone with no short name of its own is named by its offset", async () => {
    process.env.TZ = "America/New_York";
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, PENDING) });
    renderMe();

    expect(await main().findByText("Waiting for confirmation")).toBeTruthy();
    expect(fact("Joined")).toBe("20 November 2026, 04:30 GMT-5");
  });
});

describe("My place: errors", () => {
  it("a failed load says so, and Try again loads", async () => {
    signIn();
    let fail = true;
    serve({ "GET /api/me": () => (fail ? apiError(500, "internal_error", "Boom") : jsonResponse(200, PENDING)) });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { user } = renderMe();

    const alert = await main().findByRole("alert");
    expect(alert.textContent).toContain("Something went wrong on our side. Please try again.");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await main().findByText("Waiting for confirmation")).toBeTruthy();
  });

  it("no answer at all: the network message, at the action", async () => {
    signIn();
    serve({
      "GET /api/me": () => jsonResponse(200, answer()),
      "POST /api/me/waitlist": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { user } = renderMe();

    await main().findByRole("button", { name: "Join the waitlist" });
    await answerAge(user);
    await user.click(main().getByRole("button", { name: "Join the waitlist" }));

    const alert = await main().findByText("We could not reach the server. Check your connection and try again.");
    expect(alert.getAttribute("role")).toBe("alert");
    expect(fact("Status")).toBe("Not on the waitlist");
  });

  it("an answer that is not the API's (a proxy's JSON) is a failure, not a blank page", async () => {
    signIn();
    serve({ "GET /api/me": () => jsonResponse(200, { hello: "world" }) });
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderMe();

    expect((await main().findByRole("alert")).textContent).toContain("Something went wrong on our side.");
  });

  it("401: the token is refreshed once and the call made again with the new one", async () => {
    signIn();
    auth.state.refreshed = { access_token: "fresh-token", user: { email: EMAIL } };
    const calls = serve({
      "GET /api/me": (call) =>
        call.authorization === "Bearer fresh-token" ? jsonResponse(200, PENDING) : apiError(401, "not_signed_in", "No."),
    });
    renderMe();

    expect(await main().findByText("Waiting for confirmation")).toBeTruthy();
    expect(calls.map((call) => call.authorization)).toEqual([`Bearer ${TOKEN}`, "Bearer fresh-token"]);
  });

  it("401 that a refresh cannot mend: the sign-in has ended, with a link to sign in again", async () => {
    signIn();
    serve({ "GET /api/me": () => apiError(401, "not_signed_in", "No.") });
    renderMe();

    expect(await main().findByText("Your sign-in has ended. Please sign in again.")).toBeTruthy();
    expect(main().getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/#/login?next=%2Fme");
    expect(auth.client.refreshSession).toHaveBeenCalledTimes(1);
  });

  it("401 on an action: the same, instead of the page", async () => {
    signIn();
    serve({
      "GET /api/me": () => jsonResponse(200, PENDING),
      "POST /api/me/confirmation": () => apiError(401, "not_signed_in", "No."),
    });
    const { user } = renderMe();

    await user.click(await main().findByRole("button", { name: "Resend the confirmation e-mail" }));

    expect(await main().findByText("Your sign-in has ended. Please sign in again.")).toBeTruthy();
    expect(main().queryByText("Waiting for confirmation")).toBeNull();
  });
});

describe("the privacy policy", () => {
  it("names the confirmation, place and referral data, and what they are for", () => {
    window.history.replaceState(null, "", "/#/privacy-policy");
    render(<App />);
    const section = (name: string) => screen.getByRole("heading", { level: 2, name }).closest("section")!.textContent!;

    expect(screen.getByText("Last updated December 5, 2026")).toBeTruthy();
    const collected = section("Information We Collect");
    for (const stored of [
      /when you confirmed/,
      /place in line/,
      /referral code/,
      /who referred you/,
      /how many friends have joined and confirmed/,
      /keyed hash of your mailbox/,
      /network a referred friend confirmed from/,
    ]) {
      expect(collected).toMatch(stored);
    }
    const use = section("Use of Your Information");
    for (const why of [
      /make sure the address is yours/,
      /confirmation emails a day/,
      /move you up for each friend/,
      /top referrers/,
      /referrals to yourself/,
      /flag many referrals from one network/,
      /My place/,
    ]) {
      expect(use).toMatch(why);
    }
  });
});

describe("the page's code", () => {
  /** The files a module imports statically ("import ... from" / "import '...'"), resolved within web/src and worker/shared. */
  function staticImports(file: string): string[] {
    const source = readFileSync(file, "utf8");
    const specifiers = [...source.matchAll(/^import\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']/gm)].map((match) => match[1]!);
    return specifiers.flatMap((specifier) => {
      const base = specifier.startsWith("@shared/")
        ? path.resolve("worker/shared", specifier.slice("@shared/".length))
        : specifier.startsWith(".")
          ? path.resolve(path.dirname(file), specifier)
          : null;
      if (!base) return [];
      const found = ["", ".ts", ".tsx"].map((ext) => base + ext).find((candidate) => /\.tsx?$/.test(candidate) && exists(candidate));
      return found ? [found] : [];
    });
  }
  const exists = (file: string) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  };

  it("is not imported by the app's start, nor are the legal pages: only React.lazy loads them (the home page's first-load script does not carry them)", () => {
    const seen = new Set<string>();
    const queue = [path.resolve("web/src/main.tsx")];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...staticImports(file));
    }
    expect([...seen].some((file) => file.endsWith("web/src/pages/MyPlacePage.tsx"))).toBe(true);
    expect(
      [...seen].filter((file) => file.includes(`${path.sep}pages${path.sep}me${path.sep}`) || file.endsWith("journey-text.ts")),
    ).toEqual([]);
    // Nor the legal pages' text: a chunk of its own too (pages/route-chunks.tsx).
    expect(
      [...seen].filter((file) => file.endsWith("legal-content.ts") || file.endsWith("terms-content.ts") || file.endsWith("legal-chunk.ts")),
    ).toEqual([]);
  });
});
