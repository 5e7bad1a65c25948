/**
 * The contact form of spec §2, §4, §5 and §8: rendered from the shared definitions (the ones the
 * worker validates with), and every state: idle, sending, success (fields cleared), error, and a
 * message that stays until the next submit.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { FormDefinition } from "@shared/forms";
import { ContactForm } from "../../web/src/components/ContactForm";
import { contactForm } from "../../web/src/form-content";
import { apiError, deferred, honeypotOf, jsonResponse, mockFetch, preferReducedMotion, sentBody } from "./helpers";

const SUCCESS = "Message sent successfully! We'll be in touch.";
const FAILURE = "Submission failed. Please try again later.";

const created = () => jsonResponse(201, { form_name: "Contact Form", created_at: "2025-10-26T10:00:00.000Z" });

function renderContactForm(form?: FormDefinition) {
  const user = userEvent.setup();
  render(<ContactForm form={form} />);
  const element = screen.getByRole("form");
  return {
    user,
    form: element,
    name: () => within(element).getByRole("textbox", { name: "Name" }) as HTMLInputElement,
    email: () => within(element).getByRole("textbox", { name: "Email" }) as HTMLInputElement,
    message: () => within(element).getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement,
    status: () => within(element).getByRole("status"),
    alert: () => within(element).getByRole("alert"),
  };
}

async function fillIn(view: ReturnType<typeof renderContactForm>) {
  await view.user.type(view.name(), "Ada Lovelace");
  await view.user.type(view.email(), "ada@example.com");
  await view.user.type(view.message(), "When do you launch?");
}

describe("ContactForm", () => {
  it("renders the contact form's fields from the shared definition", () => {
    const view = renderContactForm();

    expect(view.form.getAttribute("aria-label")).toBe("Contact Form");
    const labels = [...view.form.querySelectorAll(".field label")];
    // Spec §2: the field name capitalised, an asterisk for required fields.
    expect(labels.map((label) => label.textContent)).toEqual(["Name*", "Email*", "Message*"]);
    for (const label of labels) {
      const asterisk = label.querySelector(".field__required");
      expect(asterisk?.textContent).toBe("*");
      // Announced through `required` instead of as a stray character.
      expect(asterisk?.getAttribute("aria-hidden")).toBe("true");
    }

    expect(view.name().type).toBe("text");
    expect(view.email().type).toBe("email");
    expect(view.message().tagName).toBe("TEXTAREA");
    expect(view.message().rows).toBe(4);
    expect([view.name(), view.email(), view.message()].map((field) => field.placeholder)).toEqual([
      "Enter your name...",
      "Enter your email...",
      "Enter your message...",
    ]);
    expect([view.name(), view.email(), view.message()].every((field) => field.required)).toBe(true);
    expect(within(view.form).getByRole("button", { name: "Send Message" })).toBeTruthy();
    expect(view.status().textContent).toBe("");
    expect(view.alert().textContent).toBe("");
  });

  it("renders select and date fields: a disabled 'Please select' first option, optional fields unmarked", () => {
    const form: FormDefinition = {
      slug: "survey",
      name: "Survey Form",
      fields: [
        { name: "grade", type: "select", required: true, options: ["Middle school", "High school", "College"] },
        { name: "exam", type: "date", required: false },
      ],
    };
    const view = renderContactForm(form);

    const select = within(view.form).getByRole("combobox", { name: "Grade" }) as HTMLSelectElement;
    const options = [...select.options];
    expect(options.map((option) => option.textContent)).toEqual(["Please select", "Middle school", "High school", "College"]);
    expect(options[0]?.disabled).toBe(true);
    expect(options[0]?.value).toBe("");
    expect(select.value).toBe("");
    expect(select.required).toBe(true);

    const date = within(view.form).getByLabelText("Exam") as HTMLInputElement;
    expect(date.type).toBe("date");
    expect(date.required).toBe(false);
    expect(date.placeholder).toBe("Enter your exam...");
    expect(date.labels?.[0]?.textContent).toBe("Exam");
  });

  it("leaves required fields to the browser: an incomplete form is not sent", async () => {
    const fetchSpy = mockFetch(async () => created());
    const view = renderContactForm();

    await view.user.type(view.name(), "Ada");
    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

    expect(fetchSpy).not.toHaveBeenCalled();
    expect(view.email().validity.valueMissing).toBe(true);
  });

  it("reads 'Sending...' while sending, then clears the fields and confirms", async () => {
    const answer = deferred<Response>();
    const fetchSpy = mockFetch(() => answer.promise);
    const view = renderContactForm();

    await fillIn(view);
    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

    const sending = within(view.form).getByRole("button", { name: "Sending..." }) as HTMLButtonElement;
    expect(sending.disabled).toBe(true);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe("/api/forms/contact");
    expect(fetchSpy.mock.calls[0]?.[1]?.method).toBe("POST");
    // The honeypot is empty; no page without a Turnstile site key sends a token.
    expect(sentBody(fetchSpy)).toEqual({ name: "Ada Lovelace", email: "ada@example.com", message: "When do you launch?", website: "" });

    answer.resolve(created());

    await within(view.status()).findByText(SUCCESS);
    expect([view.name().value, view.email().value, view.message().value]).toEqual(["", "", ""]);
    expect(view.alert().textContent).toBe("");
    expect(within(view.form).getByRole("button", { name: "Send Message" })).toBeTruthy();
  });

  it("shows 'Submission failed. Please try again later.' when the server fails (500), keeping the fields", async () => {
    // Not the server's message: the page's own words.
    mockFetch(async () => apiError(500, "internal_error", "x"));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const view = renderContactForm();

    await fillIn(view);
    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

    await within(view.alert()).findByText(FAILURE);
    expect(view.status().textContent).toBe("");
    expect(view.name().value).toBe("Ada Lovelace");
  });

  it("shows the same message when the server cannot be reached", async () => {
    mockFetch(async () => {
      throw new TypeError("Failed to fetch");
    });
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const view = renderContactForm();

    await fillIn(view);
    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

    await within(view.alert()).findByText(FAILURE);
    expect(consoleError).toHaveBeenCalled();
  });

  it("keeps the message until the next submit, which clears it while sending", async () => {
    const answers = [deferred<Response>(), deferred<Response>()];
    let call = 0;
    mockFetch(() => answers[call++]!.promise);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const view = renderContactForm();

    await fillIn(view);
    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));
    answers[0]!.resolve(apiError(500, "internal_error", FAILURE));
    await within(view.alert()).findByText(FAILURE);

    // Editing the fields does not hide it.
    await view.user.type(view.message(), " Thanks!");
    expect(view.alert().textContent).toBe(FAILURE);

    await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));
    expect(within(view.form).getByRole("button", { name: "Sending..." })).toBeTruthy();
    expect(view.alert().textContent).toBe("");
    expect(view.status().textContent).toBe("");

    answers[1]!.resolve(created());
    await within(view.status()).findByText(SUCCESS);
    expect(view.alert().textContent).toBe("");
  });

  describe("the outcome is brought into view and focused (issue 15: below the fold on a phone)", () => {
    it("a success: the message takes focus (tabIndex -1, not a Tab stop) and is scrolled to, smoothly", async () => {
      mockFetch(async () => created());
      const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
      const view = renderContactForm();
      expect(view.status().tabIndex).toBe(-1);

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.status()).findByText(SUCCESS);
      await waitFor(() => expect(document.activeElement).toBe(view.status()));
      expect(scrolled.mock.contexts.at(-1)).toBe(view.status());
      expect(scrolled).toHaveBeenLastCalledWith({ block: "center", behavior: "smooth" });
    });

    it("without motion when the visitor asked for less", async () => {
      preferReducedMotion();
      mockFetch(async () => created());
      const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await waitFor(() => expect(document.activeElement).toBe(view.status()));
      expect(scrolled).toHaveBeenLastCalledWith({ block: "center", behavior: "auto" });
    });

    it("a failure about the whole form: the alert takes focus and is scrolled to", async () => {
      mockFetch(async () => jsonResponse(429, { error: { code: "rate_limited", message: "x", retry_after: 100 } }));
      const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.alert()).findByText("Too many attempts. Please try again in 2 minutes.");
      await waitFor(() => expect(document.activeElement).toBe(view.alert()));
      expect(scrolled.mock.contexts.at(-1)).toBe(view.alert());
    });
  });

  describe("before and after the app starts", () => {
    it("is a real form: the browser posts the fields and the honeypot to the API, the button enabled from the start", () => {
      const view = renderContactForm();

      expect(view.form.getAttribute("action")).toBe("/api/forms/contact");
      expect(view.form.getAttribute("method")).toBe("post");
      expect([...new FormData(view.form as HTMLFormElement).keys()]).toEqual(["name", "email", "message", "website"]);
      expect((within(view.form).getByRole("button", { name: "Send Message" }) as HTMLButtonElement).disabled).toBe(false);
    });

    it("sends what the fields hold, even values that got there without any input event (typed before the app ran)", async () => {
      const fetchSpy = mockFetch(async () => created());
      const view = renderContactForm();

      view.name().value = "Ada Lovelace";
      view.email().value = "ada@example.com";
      view.message().value = "Typed before the script arrived";
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.status()).findByText(SUCCESS);
      expect(sentBody(fetchSpy)).toEqual({
        name: "Ada Lovelace",
        email: "ada@example.com",
        message: "Typed before the script arrived",
        website: "",
      });
    });

    it("clears every kind of field after a success, a select back to 'Please select'", async () => {
      mockFetch(async () => created());
      const form: FormDefinition = {
        slug: "survey",
        name: "Survey Form",
        fields: [
          { name: "grade", type: "select", required: true, options: ["Middle school", "High school"] },
          { name: "exam", type: "date", required: false },
        ],
      };
      const view = renderContactForm(form);
      const select = within(view.form).getByRole("combobox", { name: "Grade" }) as HTMLSelectElement;
      const date = within(view.form).getByLabelText("Exam") as HTMLInputElement;

      await view.user.selectOptions(select, "High school");
      date.value = "2025-10-26";
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.status()).findByText(SUCCESS);
      expect(select.value).toBe("");
      expect(date.value).toBe("");
    });
  });

  describe("the server's word on a field (400)", () => {
    /** The API's 400 (docs/api.md "Public API"): the first field with a problem, and each field's first problem. */
    const refused = (fields: Record<string, string>) =>
      jsonResponse(400, {
        error: { code: "validation_failed", message: Object.values(fields)[0], field: Object.keys(fields)[0], fields },
      });

    /** The message tied to a field by aria-describedby, when there is one. */
    const description = (field: HTMLElement) => {
      const id = field.getAttribute("aria-describedby");
      return id ? document.getElementById(id)?.textContent : undefined;
    };

    it("shows an address the browser let through but the server did not at the Email field", async () => {
      mockFetch(async () => refused({ email: "Please enter a valid email address" }));
      const view = renderContactForm();

      await view.user.type(view.name(), "Ada Lovelace");
      // The browser's e-mail check takes this; the server's rule (a dot in the domain) does not.
      await view.user.type(view.email(), "ada@school");
      await view.user.type(view.message(), "Hello");
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await waitFor(() => expect(description(view.email())).toBe("Please enter a valid email address"));
      expect(view.email().getAttribute("aria-invalid")).toBe("true");
      // Next to the field it is about, and nowhere else.
      expect(view.email().closest(".field")?.textContent).toContain("Please enter a valid email address");
      expect(view.alert().textContent).toBe("");
      expect(view.status().textContent).toBe("");
      for (const other of [view.name(), view.message()]) {
        expect(other.getAttribute("aria-invalid")).toBeNull();
        expect(other.getAttribute("aria-describedby")).toBeNull();
      }
      // Focus goes to the field to correct, so its message is read with it; the values stay.
      await waitFor(() => expect(document.activeElement).toBe(view.email()));
      expect([view.name().value, view.email().value, view.message().value]).toEqual(["Ada Lovelace", "ada@school", "Hello"]);
    });

    it("marks each field the server names, focusing the first", async () => {
      mockFetch(async () => refused({ name: "Name is required.", email: "Please enter a valid email address" }));
      const view = renderContactForm();

      await view.user.type(view.name(), "   ");
      await view.user.type(view.email(), "ada@school");
      await view.user.type(view.message(), "Hello");
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await waitFor(() => expect(description(view.name())).toBe("Name is required."));
      expect(description(view.email())).toBe("Please enter a valid email address");
      expect(view.message().getAttribute("aria-invalid")).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(view.name()));
    });

    it("clears the fields' messages when the form is sent again", async () => {
      const answers = [deferred<Response>(), deferred<Response>()];
      let call = 0;
      mockFetch(() => answers[call++]!.promise);
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));
      answers[0]!.resolve(refused({ name: "Name is required." }));
      await waitFor(() => expect(view.name().getAttribute("aria-invalid")).toBe("true"));

      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));
      expect(view.name().getAttribute("aria-invalid")).toBeNull();
      expect(view.form.querySelector(".field__error")).toBeNull();
      answers[1]!.resolve(created());
      await within(view.status()).findByText(SUCCESS);
    });

    it("keeps 'Submission failed. Please try again later.' for a 400 about no field of the form, and logs it", async () => {
      mockFetch(async () => refused({ website: "Website must be text." }));
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.alert()).findByText(FAILURE);
      expect(view.form.querySelector('[aria-invalid="true"]')).toBeNull();
      expect(consoleError).toHaveBeenCalled();
    });
  });

  describe("the honeypot", () => {
    it("is in the form for bots only: off-screen, hidden from assistive technology, out of the tab order", () => {
      const view = renderContactForm();
      const honeypot = honeypotOf(view.form);

      expect(within(view.form).getAllByRole("textbox")).toEqual([view.name(), view.email(), view.message()]);
      expect(honeypot.tabIndex).toBe(-1);
      expect(honeypot.getAttribute("autocomplete")).toBe("off");
      expect(honeypot.closest('[aria-hidden="true"]')?.className).toBe("honeypot");
      expect(honeypot.labels?.[0]?.textContent).toBe("Leave this field empty");
    });

    it("sends what a bot put in it", async () => {
      const fetchSpy = mockFetch(async () => created());
      const view = renderContactForm();

      await fillIn(view);
      honeypotOf(view.form).value = "https://spam.example";
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.status()).findByText(SUCCESS);
      expect(sentBody(fetchSpy)).toEqual({
        name: "Ada Lovelace",
        email: "ada@example.com",
        message: "When do you launch?",
        website: "https://spam.example",
      });
    });
  });

  describe("refusals", () => {
    const refusals = [
      {
        what: "too many attempts (429): the real wait from retry_after, in whole minutes",
        response: () => jsonResponse(429, { error: { code: "rate_limited", message: "Too many requests.", retry_after: 540 } }),
        shown: "Too many attempts. Please try again in 9 minutes.",
      },
      {
        what: "a 429 with only a Retry-After header (a limit in front of the worker)",
        response: () => new Response("Too Many Requests", { status: 429, headers: { "Retry-After": "100" } }),
        shown: "Too many attempts. Please try again in 2 minutes.",
      },
      {
        what: "a 429 whose Retry-After is an HTTP date under a minute away",
        response: () => new Response("", { status: 429, headers: { "Retry-After": new Date(Date.now() + 30_500).toUTCString() } }),
        shown: /^Too many attempts\. Please try again in (29|30|31) seconds\.$/,
      },
      {
        what: "a Turnstile token the server rejects (403 verification_failed)",
        response: () => apiError(403, "verification_failed", "Verification failed."),
        shown: contactForm.messages.notVerified,
      },
      {
        what: "Turnstile out of reach (503 verification_unavailable)",
        response: () => apiError(503, "verification_unavailable", "Verification unavailable."),
        shown: contactForm.messages.verificationUnavailable,
      },
    ];

    it.each(refusals)("shows the site's words for $what, keeping the fields", async ({ response, shown }) => {
      mockFetch(async () => response());
      const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.alert()).findByText(shown);
      expect(view.status().textContent).toBe("");
      expect(view.message().value).toBe("When do you launch?");
      expect(consoleError).not.toHaveBeenCalled();
    });

    it("keeps 'Submission failed. Please try again later.' for any other 503", async () => {
      mockFetch(async () => apiError(503, "database_unreachable", "The database cannot be reached."));
      vi.spyOn(console, "error").mockImplementation(() => {});
      const view = renderContactForm();

      await fillIn(view);
      await view.user.click(within(view.form).getByRole("button", { name: "Send Message" }));

      await within(view.alert()).findByText(FAILURE);
    });
  });
});
