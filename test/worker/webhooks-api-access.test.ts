/**
 * Issue 25 §1: the operator webhooks routes (/api/admin/webhooks) have the same authorisation as
 * every operator route: 401 without credentials, 403 not_operator for a signed-in person who is no
 * operator (nothing read, nothing changed), and the routes answer an operator signed in.
 */
import { describe, expect, it } from "vitest";
import { signIn } from "../support/auth";
import { endpointRow, fakeNetwork, hooks } from "../support/webhooks-operator";
import { uniqueEmail } from "../support/worker";

type ErrorBody = { error: { code: string } };

const STANDARD = { name: "CRM", url: "https://crm.example.com/hooks", kind: "standard", events: ["waitlist.joined"] };

/** Every webhooks route, with a request an operator could make. */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ["GET", ""],
  ["POST", "", STANDARD],
  ["GET", "/1"],
  ["PATCH", "/1", { name: "Sales" }],
  ["POST", "/1/disable"],
  ["POST", "/1/enable"],
  ["DELETE", "/1"],
  ["POST", "/1/rotate"],
  ["POST", "/1/test"],
  ["POST", "/1/dead-letters/retry", { ids: [1] }],
];

describe("who may use /api/admin/webhooks", () => {
  it("a signed-in person who is no operator gets 403 not_operator on every route, and nothing is stored", async () => {
    fakeNetwork();
    const operator = uniqueEmail("hooks-operator");
    const operators = { OPERATOR_EMAILS: operator };
    const student = (await signIn(uniqueEmail("hooks-student"))).access_token;
    for (const [method, path, body] of ROUTES) {
      const response = await hooks(path, { method, body, token: student }, operators);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(((await response.json()) as ErrorBody).error.code, `${method} ${path}`).toBe("not_operator");
    }
    const listed = await hooks("", { token: (await signIn(operator)).access_token }, operators);
    expect(listed.status).toBe(200);
    expect(await endpointRow(1)).toBeFalsy();
  });

  it("the operator's own session is let through (the same token a non-operator holds is refused)", async () => {
    const operator = uniqueEmail("hooks-operator-2");
    const token = (await signIn(operator)).access_token;
    expect((await hooks("", { token }, { OPERATOR_EMAILS: operator })).status).toBe(200);
    expect((await hooks("", { token }, { OPERATOR_EMAILS: "someone@else.test" })).status).toBe(403);
  });
});
