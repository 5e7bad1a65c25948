/**
 * The waitlist form of spec §2, §4, §5 and §8 in every state: idle, loading, success (and the
 * reset back to idle), and each error message, with fetch standing in for the API; and issue 23's
 * neutral age question and parent step (describe "the age question", "the parent step").
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { WaitlistForm, type WaitlistSource } from "../../web/src/components/WaitlistForm";
import { waitlistForm } from "../../web/src/form-content";
import { AGE_MESSAGES, AGE_QUESTION_YEARS, birthYearsOffered } from "@shared/age";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH } from "@shared/for-parents";
import { JOURNEY_TEXT } from "@shared/journey-text";
import { Footer } from "../../web/src/components/Footer";
import { apiError, deferred, honeypotOf, jsonResponse, mockFetch, sentBody } from "./helpers";

const NOTE = "Join thousands of students already on our waitlist. No spam, ever.";

/** An adult's answer to the age question (issue 23), which every join through the form now carries. */
const ADULT = { month: 1, year: 1990 } as const;
const ADULT_FIELDS = { birth_month: "1", birth_year: "1990" } as const;

/**
 * The form, with the age question answered as an adult unless `answer` is null (chosen at once:
 * like a value chosen before the app ran, the form reads the selects when it is submitted).
 */
function renderForm(props: { label?: string; source?: WaitlistSource; answer?: { month: number; year: number } | null } = {}) {
  const user = userEvent.setup();
  render(<WaitlistForm source={props.source ?? "hero"} label={props.label} />);
  const form = screen.getByRole("form");
  const answer = props.answer === undefined ? ADULT : props.answer;
  if (answer) chooseBirth(form, answer.month, answer.year);
  return {
    user,
    form,
    input: () => within(form).getByRole("textbox", { name: "Email address" }),
    status: () => within(form).getByRole("status"),
    alert: () => within(form).getByRole("alert"),
  };
}

/** Chooses a birth month and year in a form's age question (values as the selects hold them). */
function chooseBirth(form: HTMLElement, month: number | "", year: number | "") {
  fireEvent.change(within(form).getByRole("combobox", { name: "Month" }), { target: { value: String(month) } });
  fireEvent.change(within(form).getByRole("combobox", { name: "Year" }), { target: { value: String(year) } });
}

const joined = () => jsonResponse(201, { email: "ada@example.com", joined_at: "2025-10-26T10:00:00.000Z" });

describe("WaitlistForm", () => {
  it("starts idle: the e-mail field, 'Join the Inner Circle' and the note, no message", () => {
    const { form, input, status, alert } = renderForm({ answer: null });

    expect(form.getAttribute("aria-label")).toBe("Join the Inner Circle");
    expect(within(form).getByRole("button").textContent).toBe("Join the Inner Circle");
    expect(input().getAttribute("type")).toBe("email");
    expect(input().getAttribute("placeholder")).toBe("Enter your email");
    expect((input() as HTMLInputElement).disabled).toBe(false);
    expect(within(form).getByText(NOTE)).toBeTruthy();
    expect(status().textContent).toBe("");
    expect(alert().textContent).toBe("");
  });

  it("takes the label of its placement: 'Get Early Access'", () => {
    const { form } = renderForm({ label: "Get Early Access", source: "cta" });

    expect(screen.getByRole("form", { name: "Get Early Access" })).toBe(form);
    expect(within(form).getByRole("button", { name: "Get Early Access" })).toBeTruthy();
    expect(within(form).getByText(NOTE)).toBeTruthy();
  });

  it("while loading reads 'Joining...' with the field and button disabled, then shows the success", async () => {
    const answer = deferred<Response>();
    const fetchSpy = mockFetch(() => answer.promise);
    const { user, form, input, status } = renderForm({ label: "Get Early Access", source: "cta" });

    await user.type(input(), "  Ada@Example.com ");
    await user.click(within(form).getByRole("button", { name: "Get Early Access" }));

    const busy = within(form).getByRole("button", { name: "Joining..." }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect((input() as HTMLInputElement).disabled).toBe(true);
    expect(form.getAttribute("aria-busy")).toBe("true");
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe("/api/waitlist");
    expect(fetchSpy.mock.calls[0]?.[1]?.method).toBe("POST");
    // The server's rule (worker/shared/waitlist.ts) trims and lower-cases; the source names the
    // placement; the honeypot is empty; no page without a Turnstile site key sends a token.
    expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", ...ADULT_FIELDS, source: "cta", website: "" });

    answer.resolve(joined());

    await within(status()).findByText("Success! You're on the list.");
    // Issue 16: under the spec's two lines, where to look next.
    expect(within(status()).getByText(waitlistForm.checkInbox)).toBeTruthy();
    expect(within(status()).getByText("We'll notify you when the product launches!")).toBeTruthy();
    const addAnother = within(form).getByRole("button", { name: "Add another email" });
    // Focus moves in an effect, which may run just after the text is in the page.
    await waitFor(() => expect(document.activeElement).toBe(addAnother));
    expect(within(form).queryByRole("textbox")).toBeNull();
    expect(within(form).getByText(NOTE)).toBeTruthy();
  });

  it('says what happens next: press the e-mail\'s "Confirm my place" to get a place, none before (issue 22)', async () => {
    mockFetch(async () => joined());
    const { user, form, input, status } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(status()).findByText("Success! You're on the list.");
    const next = within(status()).getByText(/^Next, /);
    expect(next.textContent).toContain(`"${JOURNEY_TEXT.confirmButton}"`);
    expect(status().textContent).not.toMatch(/e-mail (has|with) your place/i);
  });

  it("'Add another email' goes back to idle with the e-mail cleared", async () => {
    mockFetch(async () => joined());
    const { user, form, input, status } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));
    await user.click(await within(form).findByRole("button", { name: "Add another email" }));

    expect((input() as HTMLInputElement).value).toBe("");
    expect(document.activeElement).toBe(input());
    expect(status().textContent).toBe("");
    expect(within(form).queryByRole("button", { name: "Add another email" })).toBeNull();
    expect(within(form).getByRole("button", { name: "Join the Inner Circle" })).toBeTruthy();
  });

  it("scrolls an error into view (it sits under the button: under the fold on a phone), the field keeping focus", async () => {
    mockFetch(async () => jsonResponse(429, { error: { code: "rate_limited", message: "x", retry_after: 30 } }));
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(alert()).findByText("Too many attempts. Please try again in 30 seconds.");
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(scrolled.mock.contexts.at(-1)).toBe(alert());
    expect(scrolled).toHaveBeenLastCalledWith({ block: "nearest", behavior: "smooth" });
  });

  it.each([
    ["nothing", ""],
    ["only spaces", "   "],
  ])("asks for an address when given %s, without sending", async (_case, typed) => {
    const fetchSpy = mockFetch(async () => joined());
    const { user, form, input, alert } = renderForm();

    if (typed) await user.type(input(), typed);
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    expect(alert().textContent).toBe("Please enter your email address");
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(input().getAttribute("aria-invalid")).toBe("true");
    expect(input().getAttribute("aria-describedby")).toContain(alert().id);
    expect(document.activeElement).toBe(input());
  });

  it.each(["student", "student@school", "@school.edu", "stu dent@school.edu", "student@school."])(
    "rejects %j as invalid, without sending",
    async (typed) => {
      const fetchSpy = mockFetch(async () => joined());
      const { user, form, input, alert } = renderForm();

      await user.type(input(), typed);
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      expect(alert().textContent).toBe("Please enter a valid email address");
      expect(fetchSpy).not.toHaveBeenCalled();
    },
  );

  it("tells an address already on the list (409) as good news: a status, not an error", async () => {
    mockFetch(async () => apiError(409, "already_joined", "You're already on our waitlist! We'll be in touch soon."));
    const { user, form, input, alert, status } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(status()).findByText("You're already on our waitlist! We'll be in touch soon.");
    // Not the red error style, not an invalid field.
    expect(status().querySelector(".message--error")).toBeNull();
    expect(alert().textContent).toBe("");
    expect(input().getAttribute("aria-invalid")).toBeNull();
    expect(input().getAttribute("aria-describedby")).not.toContain(alert().id);
    // Back to a usable form, the address kept, focus on it, for another address if need be.
    expect((input() as HTMLInputElement).disabled).toBe(false);
    expect((input() as HTMLInputElement).value).toBe("ada@example.com");
    // Focus moves in an effect, which may run just after the text is in the page.
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(within(form).getByRole("button", { name: "Join the Inner Circle" })).toBeTruthy();
  });

  it("clears the 'already on the list' status when the next address is sent", async () => {
    const answers = [deferred<Response>(), deferred<Response>()];
    let call = 0;
    mockFetch(() => answers[call++]!.promise);
    const { user, form, input, status } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));
    answers[0]!.resolve(apiError(409, "already_joined", "You're already on our waitlist! We'll be in touch soon."));
    await within(status()).findByText("You're already on our waitlist! We'll be in touch soon.");

    await user.clear(input());
    await user.type(input(), "grace@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));
    expect(status().textContent).toBe("");
    answers[1]!.resolve(joined());
    await within(status()).findByText("Success! You're on the list.");
  });

  it("shows the server's message for a 400", async () => {
    // Words the page has none of its own for: what is shown can only have come from the server.
    mockFetch(async () => apiError(400, "validation_failed", "This address cannot join the waitlist."));
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(alert()).findByText("This address cannot join the waitlist.");
  });

  it("shows the server's message for the e-mail field when a 400 names it", async () => {
    mockFetch(async () =>
      jsonResponse(400, {
        error: {
          code: "validation_failed",
          message: "The request is not valid.",
          field: "email",
          fields: { email: "Please enter a valid email address" },
        },
      }),
    );
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(alert()).findByText("Please enter a valid email address");
    expect(input().getAttribute("aria-invalid")).toBe("true");
  });

  it("shows 'Something went wrong. Please try again.' for a 500, and logs it", async () => {
    // Not the server's message: the page's own words.
    mockFetch(async () => apiError(500, "internal_error", "x"));
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(alert()).findByText("Something went wrong. Please try again.");
    expect(consoleError).toHaveBeenCalled();
  });

  it("shows the same message when the server cannot be reached, and logs it", async () => {
    const failure = new TypeError("Failed to fetch");
    mockFetch(async () => {
      throw failure;
    });
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(alert()).findByText("Something went wrong. Please try again.");
    expect(consoleError).toHaveBeenCalledWith(expect.any(String), failure);
  });

  it("clears the error when the next attempt succeeds", async () => {
    const fetchSpy = mockFetch(async () => joined());
    const { user, form, input, alert, status } = renderForm();

    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));
    expect(alert().textContent).toBe("Please enter your email address");

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(status()).findByText("Success! You're on the list.");
    expect(alert().textContent).toBe("");
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  describe("before and after the app starts", () => {
    it("is a real form: the browser posts the e-mail, the placement and the honeypot to the API", () => {
      const { form, input } = renderForm({ label: "Get Early Access", source: "cta" });

      expect(form.getAttribute("action")).toBe("/api/waitlist");
      expect(form.getAttribute("method")).toBe("post");
      expect(input().getAttribute("name")).toBe("email");
      const source = form.querySelector<HTMLInputElement>('input[name="source"]');
      expect(source?.type).toBe("hidden");
      expect(source?.value).toBe("cta");
      expect(honeypotOf(form).name).toBe("website");
      // Nothing waits for the app: the button works from the first paint.
      expect((within(form).getByRole("button", { name: "Get Early Access" }) as HTMLButtonElement).disabled).toBe(false);
      const fields = [...new FormData(form as HTMLFormElement).keys()];
      expect(fields).toEqual([
        "birth_month",
        "birth_year",
        "email",
        "source",
        "utm_source",
        "utm_medium",
        "utm_campaign",
        "referrer_host",
        "ref",
        "website",
      ]);
    });

    it("sends what the field holds, even a value that got there without any input event (typed before the app ran)", async () => {
      const fetchSpy = mockFetch(async () => joined());
      const { user, form, input, status } = renderForm();

      (input() as HTMLInputElement).value = "ada@example.com";
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      await within(status()).findByText("Success! You're on the list.");
      expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", ...ADULT_FIELDS, source: "hero", website: "" });
    });
  });

  describe("the honeypot", () => {
    it("is in the form for bots only: off-screen, hidden from assistive technology, out of the tab order", () => {
      const { form, input } = renderForm();
      const honeypot = honeypotOf(form);

      // Role queries see what assistive technology sees: one text field, the e-mail.
      expect(within(form).getAllByRole("textbox")).toEqual([input()]);
      expect(honeypot.type).toBe("text");
      expect(honeypot.tabIndex).toBe(-1);
      expect(honeypot.getAttribute("autocomplete")).toBe("off");
      expect(honeypot.closest('[aria-hidden="true"]')?.className).toBe("honeypot");
      // Labelled, for the accessibility checkers and for a person reading the page without styles.
      expect(honeypot.labels?.[0]?.textContent).toBe("Leave this field empty");
    });

    it("sends what a bot put in it, so the server can drop the submission", async () => {
      const fetchSpy = mockFetch(async () => joined());
      const { user, form, input, status } = renderForm();

      await user.type(input(), "ada@example.com");
      // A bot sets the value without any input event; the form reads the field when it submits.
      honeypotOf(form).value = "https://spam.example";
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      await within(status()).findByText("Success! You're on the list.");
      expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", ...ADULT_FIELDS, source: "hero", website: "https://spam.example" });
    });
  });

  describe("refusals", () => {
    const refusals = [
      {
        what: "too many attempts (429): the real wait from retry_after, in the nearest whole minutes",
        response: () => jsonResponse(429, { error: { code: "rate_limited", message: "Too many requests.", retry_after: 559 } }),
        shown: "Too many attempts. Please try again in 9 minutes.",
      },
      {
        what: "a 429 with a minute to wait",
        response: () => jsonResponse(429, { error: { code: "rate_limited", message: "Too many requests.", retry_after: 60 } }),
        shown: "Too many attempts. Please try again in 1 minute.",
      },
      {
        what: "a 429 from in front of the worker with only a Retry-After header, under a minute",
        response: () => new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "40" } }),
        shown: "Too many attempts. Please try again in 40 seconds.",
      },
      {
        what: "a 429 from in front of the worker, without the API's body or a Retry-After",
        response: () => new Response("Too Many Requests", { status: 429 }),
        shown: "Too many attempts. Please wait a minute and try again.",
      },
      {
        what: "a Turnstile token the server rejects (403 verification_failed)",
        response: () => apiError(403, "verification_failed", "Verification failed."),
        shown: waitlistForm.messages.notVerified,
      },
      {
        what: "Turnstile out of reach (503 verification_unavailable)",
        response: () => apiError(503, "verification_unavailable", "Verification unavailable."),
        shown: waitlistForm.messages.verificationUnavailable,
      },
    ];

    it.each(refusals)("shows the site's words for $what, without logging an error", async ({ response, shown }) => {
      mockFetch(async () => response());
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const { user, form, input, alert, status } = renderForm();

      await user.type(input(), "ada@example.com");
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      await within(alert()).findByText(shown);
      expect(status().textContent).toBe("");
      expect((input() as HTMLInputElement).value).toBe("ada@example.com");
      // Focus moves in an effect, which may run just after the text is in the page.
      await waitFor(() => expect(document.activeElement).toBe(input()));
      expect(consoleError).not.toHaveBeenCalled();
    });

    it.each([
      ["a 403 of another kind", () => apiError(403, "forbidden", "Forbidden.")],
      ["a 503 of another kind", () => apiError(503, "database_unreachable", "The database cannot be reached.")],
    ])("keeps the generic failure for %s", async (_case, response) => {
      mockFetch(async () => response());
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const { user, form, input, alert } = renderForm();

      await user.type(input(), "ada@example.com");
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      await within(alert()).findByText("Something went wrong. Please try again.");
      expect(consoleError).toHaveBeenCalled();
    });
  });
});

describe("WaitlistForm attribution (issue 10)", () => {
  it("has a hidden field for each attribution value, and sends those that hold something with the join", async () => {
    const fetchSpy = mockFetch(() => Promise.resolve(joined()));
    const { user, form, input } = renderForm();
    const hidden = (name: string) => form.querySelector<HTMLInputElement>(`input[type="hidden"][name="${name}"]`)!;
    for (const name of ["utm_source", "utm_medium", "utm_campaign", "referrer_host"]) expect(hidden(name).value).toBe("");
    // As the worker writes them into the page it serves.
    hidden("utm_source").value = "newsletter";
    hidden("referrer_host").value = "news.example";

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button"));

    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchSpy)).toEqual({
      email: "ada@example.com",
      ...ADULT_FIELDS,
      source: "hero",
      utm_source: "newsletter",
      referrer_host: "news.example",
      website: "",
    });
  });

  it("sends a shared link's referral code (the ref hidden field the worker fills, issue 16) with the join", async () => {
    const fetchSpy = mockFetch(() => Promise.resolve(joined()));
    const { user, form, input } = renderForm();
    const ref = form.querySelector<HTMLInputElement>('input[type="hidden"][name="ref"]')!;
    expect(ref.value).toBe("");
    ref.value = "K7M2Q9XA";
    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button"));
    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", ...ADULT_FIELDS, source: "hero", ref: "K7M2Q9XA", website: "" });
  });

  it("keeps the landing page's values for a form rendered later (after a visit to another page of the site)", async () => {
    // The page as served: a form whose hidden fields the worker filled, before the app's script runs.
    document.body.insertAdjacentHTML("beforeend", '<div id="served"><input type="hidden" name="utm_campaign" value="spring"></div>');
    vi.resetModules();
    const { WaitlistForm: Fresh } = await import("../../web/src/components/WaitlistForm");
    document.getElementById("served")!.remove();
    const fetchSpy = mockFetch(() => Promise.resolve(joined()));
    const user = userEvent.setup();
    render(<Fresh source="cta" label="Get Early Access" />);
    const form = screen.getByRole("form", { name: "Get Early Access" });
    chooseBirth(form, ADULT.month, ADULT.year);

    await user.type(within(form).getByRole("textbox"), "ada@example.com");
    await user.click(within(form).getByRole("button"));

    await waitFor(() => expect(fetchSpy).toHaveBeenCalledTimes(1));
    expect(sentBody(fetchSpy)).toMatchObject({ source: "cta", utm_campaign: "spring" });
  });
});

describe("WaitlistForm: the age question (issue 23)", () => {
  const question = (form: HTMLElement) => within(form).getByRole("group", { name: AGE_MESSAGES.question });
  const month = (form: HTMLElement) => within(form).getByRole("combobox", { name: "Month" }) as HTMLSelectElement;
  const year = (form: HTMLElement) => within(form).getByRole("combobox", { name: "Year" }) as HTMLSelectElement;
  const errorOf = (select: HTMLElement) =>
    (select.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ");

  it("asks neutrally: the month and year selects with nothing chosen, every year of the full range, no words about age limits or parents", () => {
    const { form } = renderForm({ answer: null });

    const fieldset = question(form);
    expect(fieldset.tagName).toBe("FIELDSET");
    expect(within(fieldset).getByText(AGE_MESSAGES.why)).toBeTruthy();
    expect(month(form).name).toBe("birth_month");
    expect(year(form).name).toBe("birth_year");
    expect(month(form).value).toBe("");
    expect(year(form).value).toBe("");
    expect([...month(form).options].map((option) => [option.value, option.text])).toEqual([
      ["", "Month"],
      ...["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"].map(
        (name, index) => [String(index + 1), name],
      ),
    ]);
    const years = [...year(form).options].map((option) => option.value);
    expect(years).toEqual(["", ...birthYearsOffered(new Date()).map(String)]);
    expect(years).toHaveLength(1 + AGE_QUESTION_YEARS + 1);
    // Nothing that hints at a right answer before the answer: no age, no parent, no "must".
    const words = form.textContent ?? "";
    for (const hint of [/\b13\b/, /parent|guardian/i, /must|old enough|years old/i])
      expect(words.replace(FOR_PARENTS_LINK, "")).not.toMatch(hint);
    expect(within(form).queryByRole("textbox", { name: AGE_MESSAGES.parentEmailLabel })).toBeNull();
  });

  it.each([
    ["no month", "", 1990, "birth_month"],
    ["no year", 5, "", "birth_year"],
    ["neither", "", "", "birth_month"],
  ] as const)("says a missing answer (%s) at its select, focused, and sends nothing", async (_case, m, y, field) => {
    const fetchSpy = mockFetch(async () => joined());
    const { user, form, input, alert } = renderForm({ answer: null });
    chooseBirth(form, m, y);

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    const select = field === "birth_month" ? month(form) : year(form);
    const other = field === "birth_month" ? year(form) : month(form);
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(other.getAttribute("aria-invalid")).toBeNull();
    expect(errorOf(select)).toContain(AGE_MESSAGES.birthMissing);
    expect(within(question(form)).getByText(AGE_MESSAGES.birthMissing)).toBeTruthy();
    expect(document.activeElement).toBe(select);
    // The e-mail is not what is wrong.
    expect(alert().textContent).toBe("");
    expect(input().getAttribute("aria-invalid")).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("says an impossible answer (a month still to come) at the year, and sends nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-06-15T12:00:00Z"));
    try {
      const fetchSpy = mockFetch(async () => joined());
      const { user, form, input } = renderForm({ answer: { month: 11, year: 2026 } });

      await user.type(input(), "ada@example.com");
      await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

      expect(year(form).getAttribute("aria-invalid")).toBe("true");
      expect(errorOf(year(form))).toContain(AGE_MESSAGES.birthImpossible);
      expect(document.activeElement).toBe(year(form));
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it("clears the answer's error once the answer is complete and sent", async () => {
    const fetchSpy = mockFetch(async () => joined());
    const { user, form, input, status } = renderForm({ answer: null });
    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));
    expect(month(form).getAttribute("aria-invalid")).toBe("true");

    await user.selectOptions(month(form), "March");
    await user.selectOptions(year(form), "2001");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    await within(status()).findByText("Success! You're on the list.");
    expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", birth_month: "3", birth_year: "2001", source: "hero", website: "" });
  });

  it.each(["birth_month", "birth_year"] as const)("shows the server's 400 for %s at that select", async (field) => {
    const message = "Please check the month and year you were born";
    mockFetch(async () => jsonResponse(400, { error: { code: "validation_failed", message, field, fields: { [field]: message } } }));
    const { user, form, input, alert } = renderForm();

    await user.type(input(), "ada@example.com");
    await user.click(within(form).getByRole("button", { name: "Join the Inner Circle" }));

    const select = field === "birth_month" ? month(form) : year(form);
    await waitFor(() => expect(select.getAttribute("aria-invalid")).toBe("true"));
    expect(errorOf(select)).toContain(message);
    await waitFor(() => expect(document.activeElement).toBe(select));
    expect(alert().textContent).toBe("");
    expect(input().getAttribute("aria-invalid")).toBeNull();
  });

  it("has a neutral 'For parents' link next to the form, to the privacy policy's part for parents", () => {
    const { form } = renderForm({ answer: null });
    const link = within(form).getByRole("link", { name: FOR_PARENTS_LINK });
    expect(link.getAttribute("href")).toBe(FOR_PARENTS_PATH);
  });
});

describe("WaitlistForm: the parent step (issue 23)", () => {
  const parentNeeded = () =>
    jsonResponse(400, {
      error: {
        code: "parent_needed",
        message: AGE_MESSAGES.parentNeeded,
        field: "parent_email",
        fields: { parent_email: AGE_MESSAGES.parentNeeded },
      },
    });
  const parentAsked = () => jsonResponse(202, { status: "parent_asked", message: AGE_MESSAGES.parentSentTitle });
  const parentField = (form: HTMLElement) => within(form).getByRole("textbox", { name: AGE_MESSAGES.parentEmailLabel }) as HTMLInputElement;

  /** A child's join: the answer of a 12-year-old, the API's parent_needed. */
  async function toParentStep(after: () => Promise<Response> = async () => parentAsked()) {
    let call = 0;
    const fetchSpy = mockFetch(async () => (call++ === 0 ? parentNeeded() : after()));
    const rendered = renderForm({ answer: { month: 1, year: new Date().getUTCFullYear() - 12 } });
    await rendered.user.type(rendered.input(), "kid@example.com");
    await rendered.user.click(within(rendered.form).getByRole("button", { name: "Join the Inner Circle" }));
    await within(rendered.form).findByText(AGE_MESSAGES.parentNeeded);
    return { ...rendered, fetchSpy };
  }

  it("after parent_needed: says so in plain words, forgets the child's address and asks for a parent's, focus on the message", async () => {
    const { form } = await toParentStep();

    const message = within(form).getByText(AGE_MESSAGES.parentNeeded).closest<HTMLElement>(".waitlist__parent")!;
    expect(within(message).getByText(AGE_MESSAGES.parentExplain)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(message));
    // The child's address is gone from the page: no field, no value anywhere in the form.
    expect(within(form).queryByRole("textbox", { name: "Email address" })).toBeNull();
    expect(form.querySelector('[name="email"]')).toBeNull();
    expect(form.innerHTML).not.toContain("kid@example.com");
    // The question was answered: it is not asked again.
    expect(within(form).queryByRole("group", { name: AGE_MESSAGES.question })).toBeNull();
    // No invitation to "join thousands of students" on the parent step (no nudge for a child).
    expect(within(form).queryByText(waitlistForm.note)).toBeNull();
    const field = parentField(form);
    expect(field.name).toBe("parent_email");
    expect(field.type).toBe("email");
    expect(field.value).toBe("");
    expect(field.getAttribute("aria-describedby")).toContain(message.id);
    expect(within(form).getByRole("button", { name: AGE_MESSAGES.parentSubmit })).toBeTruthy();
    expect(within(form).getByRole("alert").textContent).toBe("");
  });

  it("sends the parent's address, never the child's again, and says the parent was e-mailed (202 parent_asked)", async () => {
    const { user, form, status, fetchSpy } = await toParentStep();

    await user.type(parentField(form), " Parent@Example.com ");
    await user.click(within(form).getByRole("button", { name: AGE_MESSAGES.parentSubmit }));

    await within(status()).findByText(AGE_MESSAGES.parentSentTitle);
    expect(within(status()).getByText(AGE_MESSAGES.parentSentDetail)).toBeTruthy();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    const body = sentBody(fetchSpy, 1) as Record<string, unknown>;
    expect(body).toEqual({
      parent_email: "parent@example.com",
      birth_month: "1",
      birth_year: String(new Date().getUTCFullYear() - 12),
      source: "hero",
      website: "",
    });
    expect(JSON.stringify(body)).not.toContain("kid@example.com");
    expect(within(form).queryByRole("textbox")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(status()).getByText(AGE_MESSAGES.parentSentTitle)));
  });

  it.each([
    ["nothing", "", AGE_MESSAGES.parentEmailRequired],
    ["an address that is not one", "mum@home", AGE_MESSAGES.parentEmailInvalid],
  ])("says %s at the parent's field, focused, and sends nothing", async (_case, typed, shown) => {
    const { user, form, alert, fetchSpy } = await toParentStep();

    if (typed) await user.type(parentField(form), typed);
    await user.click(within(form).getByRole("button", { name: AGE_MESSAGES.parentSubmit }));

    expect(alert().textContent).toBe(shown);
    expect(parentField(form).getAttribute("aria-invalid")).toBe("true");
    expect(parentField(form).getAttribute("aria-describedby")).toContain(alert().id);
    expect(document.activeElement).toBe(parentField(form));
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it("shows the server's 400 for parent_email at the parent's field", async () => {
    const message = "Please use a permanent email address, not a disposable one.";
    const { user, form, alert } = await toParentStep(async () =>
      jsonResponse(400, { error: { code: "validation_failed", message, field: "parent_email", fields: { parent_email: message } } }),
    );

    await user.type(parentField(form), "parent@example.com");
    await user.click(within(form).getByRole("button", { name: AGE_MESSAGES.parentSubmit }));

    await within(alert()).findByText(message);
    expect(parentField(form).getAttribute("aria-invalid")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(parentField(form)));
  });
});

describe("Footer (issue 23)", () => {
  it("has a 'For parents' link to the privacy policy's part for parents", () => {
    render(<Footer />);
    const link = within(screen.getByRole("contentinfo")).getByRole("link", { name: FOR_PARENTS_LINK });
    expect(link.getAttribute("href")).toBe(FOR_PARENTS_PATH);
  });
});
