import { beforeEach, describe, expect, it } from "vitest";
import { callEndpoint } from "../../worker/features/webhooks/deliver";
import { fakeReceivers, resetWebhooks, testSecret, webhookDeps } from "../support/webhooks";

const message = (now: Date) => ({ id: "msg_test_1", timestamp: now, body: '{"type":"waitlist.joined"}' });

beforeEach(resetWebhooks);

describe("webhooks: one call to a receiver (callEndpoint)", () => {
  it("never follows a redirect: a 3xx is a failure 'redirect not followed'", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/moved";
    receivers.answer(url, () => new Response(null, { status: 302, headers: { Location: "https://elsewhere.example.com/" } }));
    const outcome = await callEndpoint(deps, { url, kind: "standard", secrets: [testSecret()] }, message(now()));
    expect(outcome).toMatchObject({ ok: false, status: 302, error: "redirect not followed" });
    expect(receivers.calls.map((call) => call.url)).toEqual([url]);
  });

  it("gives up after WEBHOOK_TIMEOUT_MS: a receiver that never answers is a timeout", async () => {
    const { deps, now } = webhookDeps({ WEBHOOK_TIMEOUT_MS: "1000" });
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/hangs";
    receivers.answer(url, () => "hang");
    const outcome = await callEndpoint(deps, { url, kind: "standard", secrets: [testSecret()] }, message(now()));
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeNull();
    expect(outcome.error).toBe("timeout: no answer within 1 s");
  });

  it("reads at most 512 bytes of the answer", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    const url = "https://crm.example.com/chatty";
    receivers.answer(url, () => new Response("x".repeat(100_000), { status: 200 }));
    const outcome = await callEndpoint(deps, { url, kind: "standard", secrets: [testSecret()] }, message(now()));
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.answer).toHaveLength(512);
  });

  it("checks the address right before calling: a host that now resolves to a private address is refused and not called", async () => {
    const { deps, now } = webhookDeps();
    const receivers = fakeReceivers(now);
    receivers.resolve("rebound.example.com", "10.0.0.7");
    const outcome = await callEndpoint(
      deps,
      { url: "https://rebound.example.com/hook", kind: "standard", secrets: [testSecret()] },
      message(now()),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/^refused: .*private network/);
    expect(receivers.calls).toHaveLength(0);
  });
  it("never keeps a Slack address quoted by a runtime's error", async () => {
    const { deps, now } = webhookDeps();
    const url = "https://hooks.slack.com/services/T1/B2/tokenTOKEN";
    fakeReceivers(now).answer(url, () => {
      throw new TypeError(`Fetch failed for ${url}`);
    });
    const outcome = await callEndpoint(deps, { url, kind: "slack", secrets: [] }, message(now()));
    expect(outcome.error).toBe("no answer: TypeError: Fetch failed for <the endpoint's address>");
  });
});
