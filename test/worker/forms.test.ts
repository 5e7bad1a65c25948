import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { brokenDatabase, countRows, postJson, testRepository, uniqueEmail } from "../support/worker";

const repo = testRepository();

describe("POST /api/forms/:form", () => {
  it("stores a contact message as {form_name, form_data}, answers 201 and notifies", async () => {
    const email = uniqueEmail("contact");
    const res = await postJson("/api/forms/contact", { name: "  Ada Lovelace ", email, message: "Line one\nLine two" });
    expect(res.status).toBe(201);
    const body = await res.json<{ form_name: string; created_at: string }>();
    // No id: a sequential id would tell anyone how many messages the team has had.
    expect(body).toEqual({ form_name: "Contact Form", created_at: expect.any(String) });

    const row = await env.DB.prepare("select id from hwh_form_submissions where form_data like ?")
      .bind(`%${email}%`)
      .first<{ id: number }>();
    const stored = await repo.findFormSubmission(row!.id);
    expect(stored).toMatchObject({
      formName: "Contact Form",
      formData: { name: "Ada Lovelace", email, message: "Line one\nLine two" },
      emailSent: true,
    });
    expect(stored!.emailSentAt).not.toBeNull();
    const mail = (await repo.devMail.list()).find((m) => m.bodyHtml.includes(email));
    expect(mail!.title).toBe("[Contact Form] New submission");
    expect(mail!.bodyHtml).toContain("<strong>name:</strong> Ada Lovelace");
    expect(mail!.bodyHtml).toContain(stored!.createdAt);
  });

  it("answers 400 naming every invalid field, and stores nothing", async () => {
    const before = await countRows("hwh_form_submissions");
    const res = await postJson("/api/forms/contact", { name: " ", email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "Name is required.",
        field: "name",
        fields: {
          name: "Name is required.",
          email: "Please enter a valid email address",
          message: "Message is required.",
        },
      },
    });
    expect(await countRows("hwh_form_submissions")).toBe(before);
  });

  it("answers 404 for a form that is not defined", async () => {
    const res = await postJson("/api/forms/survey", { name: "x" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "form_not_found" } });
  });

  it("answers 500 with the spec's message when the database fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await postJson("/api/forms/contact", { name: "Ada", email: uniqueEmail(), message: "Hi" }, { DB: brokenDatabase() });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { code: "internal_error", message: "Submission failed. Please try again later." },
    });
  });
});
