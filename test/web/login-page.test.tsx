/**
 * The login page (spec §2 Login, §4, §5, §8) with a stand-in for auth-js: both steps, the way
 * back to step one, a new code within the server's wait (a countdown on step two), the code
 * field's digits-only input, the words shown for each failure, and the page seen while signed in.
 */
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AuthApiError, AuthRetryableFetchError } from "@supabase/auth-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Router } from "wouter";
import { useHashLocation } from "wouter/use-hash-location";
import { AuthProvider } from "../../web/src/auth/AuthProvider";
import { login } from "../../web/src/pages/login/content";
import { LoginPage } from "../../web/src/pages/LoginPage";
import { codeWaitMessage, requestRateMessage } from "@shared/sign-in";
import { AGE_MESSAGES } from "@shared/age";
import { deferred } from "./helpers";

type Session = { user: { email: string } };
type Listener = (event: string, session: Session | null) => void;
type Answer = { data: unknown; error: unknown };

/** auth-js as the page uses it: the three calls, and its events (which AuthProvider follows). */
const auth = vi.hoisted(() => {
  const listeners = new Set<Listener>();
  const emit = (event: string, email: string | null) => {
    for (const listener of [...listeners]) listener(event, email === null ? null : { user: { email } });
  };
  const client = {
    signInWithOtp: vi.fn<(input: { email: string }) => Promise<Answer>>(),
    verifyOtp: vi.fn<(input: { email: string; token: string; type: string }) => Promise<Answer>>(),
    signOut: vi.fn<(options: { scope: string }) => Promise<{ error: unknown }>>(),
    onAuthStateChange(listener: Listener) {
      listeners.add(listener);
      return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
    },
  };
  return { client, listeners, emit, getAuthClient: vi.fn<() => Promise<typeof client>>() };
});

/** The console is a page load, which jsdom cannot do: the real step, with the load recorded. */
const loaded = vi.hoisted(() => [] as string[]);
vi.mock("../../web/src/pages/login/return-path", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../web/src/pages/login/return-path")>();
  return {
    goToReturnPath: (path: string, navigate: (to: string) => void) => real.goToReturnPath(path, navigate, (to) => loaded.push(to)),
  };
});

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: () => auth.getAuthClient(),
  onAuthClientLoaded: (listener: (client: unknown) => void) => {
    listener(auth.client);
    return () => {};
  },
}));

const EMAIL = "ada@example.com";
const sent = (): Answer => ({ data: { user: null, session: null }, error: null });
const apiError = (status: number, code: string, message: string): Answer => ({
  data: null,
  error: new AuthApiError(message, status, code),
});
const networkError = (): Answer => ({ data: null, error: new AuthRetryableFetchError("Failed to fetch", 0) });
const tooSoon = (seconds: number) => apiError(429, "over_email_send_rate_limit", codeWaitMessage(seconds));
const tooManyRequests = (seconds: number) => apiError(429, "over_request_rate_limit", requestRateMessage(seconds));

beforeEach(() => {
  auth.getAuthClient.mockReset().mockResolvedValue(auth.client);
  auth.client.signInWithOtp.mockReset().mockResolvedValue(sent());
  auth.client.verifyOtp.mockReset().mockImplementation(async ({ email }) => {
    // As auth-js: the session is stored and SIGNED_IN announced before verifyOtp returns.
    auth.emit("SIGNED_IN", email);
    return { data: { user: { email }, session: {} }, error: null };
  });
  auth.client.signOut.mockReset().mockImplementation(async () => {
    auth.emit("SIGNED_OUT", null);
    return { error: null };
  });
});

afterEach(() => {
  auth.listeners.clear();
});

/** Fake timers that still follow real time, so Testing Library's waiting works. */
function useFakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
}

function renderLogin(address = "/#/login") {
  window.history.replaceState(null, "", address);
  const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
  render(
    <Router hook={useHashLocation}>
      <AuthProvider>
        <LoginPage />
      </AuthProvider>
    </Router>,
  );
  return {
    user,
    heading: () => screen.getByRole("heading", { level: 1 }),
    emailInput: () => screen.getByLabelText(login.emailLabel) as HTMLInputElement,
    codeInput: () => screen.getByLabelText(login.codeLabel) as HTMLInputElement,
    status: () => screen.getByRole("status"),
    alert: () => screen.getByRole("alert"),
    button: (name: string) => screen.getByRole("button", { name }) as HTMLButtonElement,
    queryButton: (name: string) => screen.queryByRole("button", { name }),
    timer: () => screen.queryByRole("timer"),
  };
}

type Page = ReturnType<typeof renderLogin>;

/** Step one for `email`, then waits for step two. */
async function reachCodeStep(page: Page, email = EMAIL) {
  await page.user.type(page.emailInput(), email);
  await page.user.click(page.button("Send Code"));
  await screen.findByRole("heading", { level: 1, name: "Verify Code" });
}

describe("LoginPage: the two steps", () => {
  it("starts on step one: the e-mail field with its label, intro and placeholder, 'Send Code', no message, no countdown", () => {
    const page = renderLogin();

    expect(page.heading().textContent).toBe("Sign In");
    expect(screen.getByText("Enter your email address and we'll send you a 6-digit code.")).toBeTruthy();
    const input = page.emailInput();
    expect(input.type).toBe("email");
    expect(input.name).toBe("email");
    expect(input.getAttribute("autocomplete")).toBe("email");
    expect(input.placeholder).toBe("you@example.com");
    expect(input.value).toBe("");
    expect(input.disabled).toBe(false);
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(page.button("Send Code").disabled).toBe(false);
    expect(page.status().textContent).toBe("");
    expect(page.alert().textContent).toBe("");
    expect(page.timer()).toBeNull();
    expect(screen.queryByLabelText(login.codeLabel)).toBeNull();
    expect(auth.getAuthClient).not.toHaveBeenCalled();
  });

  it("trims and lower-cases the typed address: the code goes to it, step two names it, and the code is verified for it", async () => {
    const page = renderLogin();

    // The field itself drops ASCII spaces at the ends (an e-mail input's value sanitisation);
    // the no-break spaces of an address copied from a web page or an e-mail are the page's to trim.
    await page.user.type(page.emailInput(), " \u00a0Ada@Example.COM\u00a0\u2003 ");
    await page.user.click(page.button("Send Code"));

    await screen.findByRole("heading", { level: 1, name: "Verify Code" });
    expect(auth.client.signInWithOtp).toHaveBeenCalledWith({ email: EMAIL });
    expect(screen.getByText(`A 6-digit code was sent to ${EMAIL}.`)).toBeTruthy();
    await page.user.type(page.codeInput(), "123456");
    await page.user.click(page.button("Verify Code"));
    expect(auth.client.verifyOtp).toHaveBeenCalledWith({ email: EMAIL, token: "123456", type: "email" });
  });

  it("sends what the field holds, even a value that got there without any input event (typed before the app ran)", async () => {
    const page = renderLogin();

    page.emailInput().value = " Ada@example.com";
    await page.user.click(page.button("Send Code"));

    await screen.findByRole("heading", { level: 1, name: "Verify Code" });
    expect(auth.client.signInWithOtp).toHaveBeenCalledWith({ email: EMAIL });
  });

  it("clears an earlier error when the address is sent again", async () => {
    const page = renderLogin();
    await page.user.click(page.button("Send Code"));
    expect(page.alert().textContent).toBe("Please enter your email address.");

    await reachCodeStep(page);

    expect(page.alert().textContent).toBe("");
    expect(page.codeInput().getAttribute("aria-invalid")).toBeNull();
  });

  it("opens step two with focus in the code field and the way back to step one beside the confirmation", async () => {
    const page = renderLogin();
    expect(page.heading().textContent).toBe("Sign In");
    expect(document.activeElement).toBe(page.emailInput());

    await reachCodeStep(page);

    expect(screen.getByText(`A 6-digit code was sent to ${EMAIL}.`)).toBeTruthy();
    expect(page.status().textContent).toBe("Verification code sent to your email!");
    // The phone keeps its keyboard: focus is in the code field, not on the page body.
    await waitFor(() => expect(document.activeElement).toBe(page.codeInput()));
    // The code-sent confirmation does not hide the way back.
    expect(page.queryButton("Resend code or change email")).not.toBeNull();

    await page.user.click(page.button("Resend code or change email"));
    expect(page.heading().textContent).toBe("Sign In");
    expect(page.emailInput().value).toBe(EMAIL);
    expect(document.activeElement).toBe(page.emailInput());
    expect(page.status().textContent).toBe("");
    expect(page.alert().textContent).toBe("");
  });

  it("shows 'Sending...' with the input and button disabled while the code is requested", async () => {
    const answer = deferred<Answer>();
    auth.client.signInWithOtp.mockReturnValue(answer.promise);
    const page = renderLogin();

    await page.user.type(page.emailInput(), "  Ada@Example.com ");
    await page.user.click(page.button("Send Code"));

    expect(page.button("Sending...").disabled).toBe(true);
    expect(page.emailInput().disabled).toBe(true);
    // The waitlist's rule cleaned the address before it was sent.
    expect(auth.client.signInWithOtp).toHaveBeenCalledWith({ email: EMAIL });

    await act(async () => answer.resolve(sent()));
    expect(page.heading().textContent).toBe("Verify Code");
  });

  it("hides the way back while verifying and once signed in, then goes to My place after 1500 ms (issue 22)", async () => {
    const advance = useFakeClock();
    const answer = deferred<Answer>();
    const page = renderLogin();
    await reachCodeStep(page);
    auth.client.verifyOtp.mockImplementation(async ({ email }) => {
      await answer.promise;
      auth.emit("SIGNED_IN", email);
      return { data: {}, error: null };
    });

    await page.user.type(page.codeInput(), "123456");
    await page.user.click(page.button("Verify Code"));

    expect(page.button("Verifying...").disabled).toBe(true);
    expect(page.codeInput().disabled).toBe(true);
    expect(page.queryButton("Resend code or change email")).toBeNull();
    expect(auth.client.verifyOtp).toHaveBeenCalledWith({ email: EMAIL, token: "123456", type: "email" });

    await act(async () => answer.resolve({ data: null, error: null }));
    // Signed in by this page: the success message stays (not the signed-in view) until it moves on.
    expect(page.status().textContent).toBe("Successfully logged in! Redirecting...");
    expect(page.heading().textContent).toBe("Verify Code");
    expect(page.queryButton("Resend code or change email")).toBeNull();
    expect(page.queryButton("Send a new code")).toBeNull();
    expect(page.codeInput().disabled).toBe(true);

    await advance(1_400);
    expect(window.location.hash).toBe("#/login");
    await advance(100);
    // Nowhere asked for (the header's Login): the page signing in is for, not the home page.
    expect(window.location.hash).toBe("#/me");
  });

  it.each([
    ["the console's link", "/#/login?next=%2Fadmin%2F", "#/login?next=%2Fadmin%2F", ["/admin/"]],
    ["a link back to a page of the site", "/#/login?next=%2Fprivacy-policy", "#/privacy-policy", []],
    ["a link back to the home page", "/#/login?next=%2F", "#/", []],
    ["My place's link", "/#/login?next=%2Fme", "#/me", []],
    ["a link naming another site", "/#/login?next=https%3A%2F%2Fevil.example%2F", "#/me", []],
    ["a link naming a protocol-relative address", "/#/login?next=%2F%2Fevil.example", "#/me", []],
  ])(
    "after signing in from %s, goes there after 1500 ms (only to the console or the site's pages; else My place)",
    async (_case, address, hash, loads) => {
      const advance = useFakeClock();
      loaded.length = 0;
      const page = renderLogin(address);
      await reachCodeStep(page);
      await page.user.type(page.codeInput(), "123456");
      await page.user.click(page.button("Verify Code"));
      await waitFor(() => expect(page.status().textContent).toBe(login.messages.signedIn));

      await advance(1_400);
      expect(loaded).toEqual([]);
      expect(window.location.hash).toBe(address.slice(1));
      await advance(100);
      expect(window.location.hash).toBe(hash);
      expect(loaded).toEqual(loads);
    },
  );

  it("goes home with the back-to-home button", async () => {
    const page = renderLogin();
    await page.user.click(page.button("Back to Home"));
    expect(window.location.hash).toBe("#/");
  });
});

describe("LoginPage: the code field", () => {
  it("is a 6-digit one-time-code field for a numeric keyboard", async () => {
    const page = renderLogin();
    await reachCodeStep(page);

    const input = page.codeInput();
    expect(input.maxLength).toBe(6);
    expect(input.getAttribute("inputmode")).toBe("numeric");
    expect(input.getAttribute("autocomplete")).toBe("one-time-code");
    expect(input.getAttribute("pattern")).toBe("[0-9]{6}");
  });

  it("takes digits only: typed letters do nothing", async () => {
    const page = renderLogin();
    await reachCodeStep(page);

    await page.user.type(page.codeInput(), "1a2b 3-4x56789");

    expect(page.codeInput().value).toBe("123456");
  });

  it.each(["123 456", "123-456", "Your code: 123456", " 123456\n"])("turns a pasted %j into 123456", async (pasted) => {
    const page = renderLogin();
    await reachCodeStep(page);

    page.codeInput().focus();
    await page.user.paste(pasted);

    expect(page.codeInput().value).toBe("123456");
  });

  it("asks for the code when it is empty, and for every digit when it is short, without sending", async () => {
    const page = renderLogin();
    await reachCodeStep(page);

    await page.user.click(page.button("Verify Code"));
    expect(page.alert().textContent).toBe("Please enter the verification code.");

    await page.user.type(page.codeInput(), "123");
    await page.user.click(page.button("Verify Code"));
    expect(page.alert().textContent).toBe("Please enter all 6 digits of the code.");
    expect(document.activeElement).toBe(page.codeInput());
    expect(auth.client.verifyOtp).not.toHaveBeenCalled();
  });
});

describe("LoginPage: a new code", () => {
  it("sends a new code from step two, staying there, with the field cleared and focused", async () => {
    const page = renderLogin();
    await reachCodeStep(page);
    await page.user.type(page.codeInput(), "12");

    await page.user.click(page.button("Send a new code"));

    await waitFor(() => expect(page.status().textContent).toBe("Verification code sent to your email!"));
    expect(auth.client.signInWithOtp).toHaveBeenCalledTimes(2);
    expect(auth.client.signInWithOtp).toHaveBeenLastCalledWith({ email: EMAIL });
    expect(page.heading().textContent).toBe("Verify Code");
    expect(page.codeInput().value).toBe("");
    expect(document.activeElement).toBe(page.codeInput());
  });

  it("within the server's wait keeps the visitor on step two with a countdown, then offers it again", async () => {
    const advance = useFakeClock();
    const page = renderLogin();
    await reachCodeStep(page);
    await page.user.type(page.codeInput(), "12");
    auth.client.signInWithOtp.mockResolvedValueOnce(tooSoon(42));

    await page.user.click(page.button("Send a new code"));

    await waitFor(() => expect(page.timer()?.textContent).toBe("You can ask for a new code in 42 seconds."));
    expect(page.heading().textContent).toBe("Verify Code");
    expect(page.status().textContent).toBe(login.messages.codeAlreadySent);
    expect(page.alert().textContent).toBe("");
    // The earlier code still works: what was typed of it stays, and the field has focus.
    expect(page.codeInput().value).toBe("12");
    expect(document.activeElement).toBe(page.codeInput());
    expect(page.queryButton("Send a new code")).toBeNull();
    expect(page.queryButton("Resend code or change email")).not.toBeNull();
    expect(screen.queryByText(/For security purposes/)).toBeNull();

    await advance(1_000);
    expect(page.timer()?.textContent).toBe("You can ask for a new code in 41 seconds.");
    await advance(40_000);
    expect(page.timer()?.textContent).toBe("You can ask for a new code in 1 second.");
    await advance(1_000);
    expect(page.timer()).toBeNull();

    await page.user.click(page.button("Send a new code"));
    await waitFor(() => expect(page.status().textContent).toBe("Verification code sent to your email!"));
    expect(auth.client.signInWithOtp).toHaveBeenCalledTimes(3);
  });

  it("from step one, for an address that just got a code, opens step two with the countdown", async () => {
    useFakeClock();
    auth.client.signInWithOtp.mockResolvedValue(tooSoon(3600));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await screen.findByRole("heading", { level: 1, name: "Verify Code" });
    expect(page.status().textContent).toBe(login.messages.codeAlreadySent);
    expect(page.timer()?.textContent).toBe("You can ask for a new code in 60 minutes.");
    await waitFor(() => expect(document.activeElement).toBe(page.codeInput()));

    // Changing the address is still possible: the wait is this address's.
    await page.user.click(page.button("Resend code or change email"));
    expect(page.button("Send Code").disabled).toBe(false);
    expect(page.timer()).toBeNull();
  });

  it("past the per-device limit, keeps step one's button disabled with a countdown until it ends", async () => {
    const advance = useFakeClock();
    auth.client.signInWithOtp.mockResolvedValueOnce(tooManyRequests(5));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(login.messages.tooManyCodeRequests));
    expect(page.heading().textContent).toBe("Sign In");
    expect(page.timer()?.textContent).toBe("You can ask for a new code in 5 seconds.");
    expect(page.button("Send Code").disabled).toBe(true);
    expect(document.activeElement).toBe(page.emailInput());

    await advance(5_000);
    expect(page.timer()).toBeNull();
    expect(page.button("Send Code").disabled).toBe(false);
    await page.user.click(page.button("Send Code"));
    await screen.findByRole("heading", { level: 1, name: "Verify Code" });
  });
});

describe("LoginPage: messages a student understands", () => {
  it.each([
    ["nothing", "", "Please enter your email address."],
    ["only spaces", "   ", "Please enter your email address."],
    ["no domain", "student@school", login.messages.emailInvalid],
    ["a space inside", "stu dent@school.edu", login.messages.emailInvalid],
    ["two addresses", "a@b.co,c@d.co", login.messages.emailInvalid],
  ])("checks the e-mail before sending: %s", async (_case, typed, expected) => {
    const page = renderLogin();

    if (typed) await page.user.type(page.emailInput(), typed);
    await page.user.click(page.button("Send Code"));

    expect(page.alert().textContent).toBe(expected);
    expect(page.emailInput().getAttribute("aria-invalid")).toBe("true");
    expect(page.emailInput().getAttribute("aria-describedby")).toContain(page.alert().id);
    expect(auth.client.signInWithOtp).not.toHaveBeenCalled();
  });

  it.each([
    ["an unreachable server", async () => networkError()],
    ["a thrown TypeError", async (): Promise<Answer> => Promise.reject(new TypeError("Failed to fetch"))],
  ])("shows the spec's words for a code request that fails with %s, never 'Failed to fetch'", async (_case, answer) => {
    auth.client.signInWithOtp.mockImplementation(answer);
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe("Failed to send verification code. Please try again."));
    expect(screen.queryByText(/Failed to fetch/)).toBeNull();
    expect(page.heading().textContent).toBe("Sign In");
    expect(page.emailInput().disabled).toBe(false);
  });

  it("shows the spec's words when the sign-in library cannot be loaded", async () => {
    auth.getAuthClient.mockRejectedValue(new TypeError("Failed to fetch dynamically imported module"));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe("Failed to send verification code. Please try again."));
  });

  it("says the address looks wrong when the server refuses it", async () => {
    auth.client.signInWithOtp.mockResolvedValue(apiError(400, "validation_failed", "Unable to validate email address: invalid format"));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(login.messages.emailInvalid));
    expect(document.activeElement).toBe(page.emailInput());
  });

  it("shows the server's message for an error it has no words of its own for (spec §8)", async () => {
    auth.client.signInWithOtp.mockResolvedValue(apiError(422, "email_provider_disabled", "Email logins are disabled"));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe("Email logins are disabled"));
  });

  it("below the consent age (403 parent_needed, issue 23): the parent path's words at the e-mail field, no step two", async () => {
    auth.client.signInWithOtp.mockResolvedValue(apiError(403, "parent_needed", "We need a parent or guardian to say yes first"));
    const page = renderLogin();

    await page.user.type(page.emailInput(), EMAIL);
    await page.user.click(page.button("Send Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(AGE_MESSAGES.parentNeeded));
    expect(page.heading().textContent).toBe("Sign In");
    await waitFor(() => expect(document.activeElement).toBe(page.emailInput()));
    expect(page.emailInput().getAttribute("aria-invalid")).toBe("true");
  });

  it.each([
    ["a wrong or expired code", apiError(403, "otp_expired", "Token has expired or is invalid"), login.messages.codeRejected],
    ["an unreachable server", networkError(), "Invalid verification code. Please try again."],
    ["too many tries", tooManyRequests(42), "Too many tries from this network. Please wait 42 seconds and try again."],
    ["too many tries for long", tooManyRequests(600), "Too many tries from this network. Please wait 10 minutes and try again."],
  ])("explains %s on step two", async (_case, answer, expected) => {
    auth.client.verifyOtp.mockResolvedValue(answer);
    const page = renderLogin();
    await reachCodeStep(page);

    await page.user.type(page.codeInput(), "123456");
    await page.user.click(page.button("Verify Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(expected));
    expect(screen.queryByText(/Failed to fetch|Token has expired|rate limit/)).toBeNull();
    expect(page.heading().textContent).toBe("Verify Code");
    expect(page.codeInput().disabled).toBe(false);
    expect(page.codeInput().getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(page.codeInput());
    expect(page.queryButton("Resend code or change email")).not.toBeNull();
  });

  it("says a wrong code is wrong or has expired, with no count of tries, under the code field, which it describes", async () => {
    const expected = "That code is wrong or has expired. Check the newest email from us, or ask for a new code.";
    auth.client.verifyOtp.mockResolvedValue(apiError(403, "otp_expired", "Token has expired or is invalid"));
    const page = renderLogin();
    await reachCodeStep(page);

    await page.user.type(page.codeInput(), "123456");
    await page.user.click(page.button("Verify Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(expected));
    expect(login.messages.codeRejected).toBe(expected);
    const input = page.codeInput();
    // At the field: the very next element after the input, before the buttons and links.
    expect(input.nextElementSibling).toBe(page.alert());
    expect(input.getAttribute("aria-describedby")?.split(" ")).toContain(page.alert().id);
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(page.queryButton("Resend code or change email")).not.toBeNull();
  });

  it("puts step one's error under the e-mail field too; with no error the field is described by the intro alone", async () => {
    const page = renderLogin();
    expect(page.emailInput().nextElementSibling).toBe(page.alert());
    expect(page.alert().textContent).toBe("");
    expect(page.emailInput().getAttribute("aria-describedby")).not.toContain(page.alert().id);
    await page.user.click(page.button("Send Code"));
    await waitFor(() => expect(page.alert().textContent).toBe(login.messages.emailRequired));
    expect(page.emailInput().nextElementSibling).toBe(page.alert());
    expect(page.emailInput().getAttribute("aria-describedby")).toContain(page.alert().id);
  });

  it.each([
    [
      "a refusal it has no words of its own for",
      async () => apiError(422, "otp_disabled", "Signups not allowed for otp"),
      "Signups not allowed for otp",
    ],
    [
      "a thrown TypeError",
      async (): Promise<Answer> => Promise.reject(new TypeError("Failed to fetch")),
      login.messages.verificationFailed,
    ],
    [
      "too many tries with no wait named",
      async () => apiError(429, "over_request_rate_limit", "Request rate limit reached"),
      "Too many tries from this network. Please wait 60 seconds and try again.",
    ],
  ])("on step two, shows %s in the page's terms", async (_case, answer, expected) => {
    auth.client.verifyOtp.mockImplementation(answer);
    const page = renderLogin();
    await reachCodeStep(page);

    await page.user.type(page.codeInput(), "123456");
    await page.user.click(page.button("Verify Code"));

    await waitFor(() => expect(page.alert().textContent).toBe(expected));
    expect(page.status().textContent).toBe("");
    expect(page.heading().textContent).toBe("Verify Code");
    expect(page.codeInput().value).toBe("123456");
    expect(window.location.hash).toBe("#/login");
  });

  it("when a new code cannot be sent from step two, says so there, with focus kept in the code field", async () => {
    const page = renderLogin();
    await reachCodeStep(page);
    auth.client.signInWithOtp.mockResolvedValueOnce(networkError());

    await page.user.click(page.button("Send a new code"));

    await waitFor(() => expect(page.alert().textContent).toBe(login.messages.codeRequestFailed));
    expect(page.status().textContent).toBe("");
    expect(page.heading().textContent).toBe("Verify Code");
    await waitFor(() => expect(document.activeElement).toBe(page.codeInput()));
    expect(page.queryButton("Send a new code")).not.toBeNull();
  });

  it("puts a wait into words", () => {
    expect([1, 2, 42, 90, 91, 3600, 5400, 5401, 7200].map(login.waitFor)).toEqual([
      "1 second",
      "2 seconds",
      "42 seconds",
      "90 seconds",
      "2 minutes",
      "60 minutes",
      "90 minutes",
      "2 hours",
      "2 hours",
    ]);
  });
});

describe("LoginPage: already signed in", () => {
  const storedSession = (email: string) =>
    JSON.stringify({ access_token: "a.b.c", refresh_token: "r", expires_at: 9_999_999_999, user: { email } });

  it("says who is signed in, with Logout instead of the form", () => {
    window.localStorage.setItem("hwh-auth", storedSession("grace@example.com"));
    const page = renderLogin();

    expect(page.heading().textContent).toBe("Already signed in");
    expect(screen.getByText("You're signed in as grace@example.com.")).toBeTruthy();
    expect(page.button("Logout")).toBeTruthy();
    expect(screen.queryByLabelText(login.emailLabel)).toBeNull();
    expect(page.button("Back to Home")).toBeTruthy();
  });

  it.each([
    ["a session without tokens", JSON.stringify({ user: { email: "grace@example.com" } })],
    ["a session without a refresh token", JSON.stringify({ access_token: "a.b.c", user: { email: "grace@example.com" } })],
    ["a session whose user has no e-mail", JSON.stringify({ access_token: "a.b.c", refresh_token: "r", user: { id: "u1" } })],
    ["a list", JSON.stringify([storedSession("grace@example.com")])],
    ["text that is not JSON", "{not json"],
  ])("shows the sign-in form, not the signed-in view, for a stored value auth-js could not use: %s", (_case, stored) => {
    window.localStorage.setItem("hwh-auth", stored);
    const page = renderLogin();

    expect(page.heading().textContent).toBe("Sign In");
    expect(page.emailInput().disabled).toBe(false);
    expect(screen.queryByText(/You're signed in as/)).toBeNull();
    expect(page.queryButton("Logout")).toBeNull();
  });

  it("logs this device out (scope local) and shows the empty form to sign in again", async () => {
    window.localStorage.setItem("hwh-auth", storedSession("grace@example.com"));
    const page = renderLogin();

    await page.user.click(page.button("Logout"));

    await screen.findByRole("heading", { level: 1, name: "Sign In" });
    expect(auth.client.signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(page.status().textContent).toBe(login.messages.loggedOut);
    expect(page.emailInput().value).toBe("");
    await waitFor(() => expect(document.activeElement).toBe(page.emailInput()));
    expect(window.location.hash).toBe("#/login");
  });

  it("says so when logging out fails, and stays signed in", async () => {
    window.localStorage.setItem("hwh-auth", storedSession("grace@example.com"));
    auth.getAuthClient.mockRejectedValue(new TypeError("Failed to fetch dynamically imported module"));
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const page = renderLogin();

    await page.user.click(page.button("Logout"));

    await waitFor(() => expect(page.alert().textContent).toBe(login.messages.logoutFailed));
    expect(screen.getByText("You're signed in as grace@example.com.")).toBeTruthy();
    expect(page.button("Logout").disabled).toBe(false);
    expect(error).toHaveBeenCalled();
  });

  it("switches to the signed-in view when another tab signs in", async () => {
    const page = renderLogin();
    expect(page.heading().textContent).toBe("Sign In");

    act(() => auth.emit("SIGNED_IN", "grace@example.com"));

    expect(screen.getByText("You're signed in as grace@example.com.")).toBeTruthy();
  });
});
