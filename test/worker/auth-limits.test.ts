// The per-IP limits of /otp, /verify, /token and /admin (failing closed), who a client is for
// them; the routes auth-js has that are not enabled, and the cron's housekeeping.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { clientKey } from "../../worker/platform/http/client";
import worker from "../../worker/index";
import {
  ADMIN_KEY,
  authCall,
  clientKeyOf,
  codeMailCount,
  codeRow,
  countAuthRows,
  databaseFailingOn,
  expectAuthError,
  refresh,
  requestCode,
  signIn,
  uniqueIp,
  verify,
} from "../support/auth";
import { call, uniqueEmail } from "../support/worker";

// The per-IP limits of /otp, /verify and /token, the routes that are not enabled, and the cron housekeeping.

describe("per-IP rate limits", () => {
  const limits = {
    AUTH_RATE_LIMIT_OTP: "3",
    AUTH_RATE_LIMIT_VERIFY: "3",
    AUTH_RATE_LIMIT_TOKEN: "3",
    AUTH_RATE_LIMIT_WINDOW_SECONDS: "300",
  };

  it("/otp: past the limit 429 over_request_rate_limit with Retry-After; another IP is not affected", async () => {
    const ip = uniqueIp();
    const start = Math.ceil(Date.now() / 300_000) * 300_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start + 100_000);
    for (let index = 0; index < 3; index += 1) {
      expect((await authCall("POST", "/otp", { email: uniqueEmail("limit") }, { ip, overrides: limits })).status).toBe(200);
    }
    const email = uniqueEmail("limited");
    const refused = await authCall("POST", "/otp", { email }, { ip, overrides: limits });
    await expectAuthError(refused, 429, "over_request_rate_limit");
    expect(refused.headers.get("Retry-After")).toBe("200");
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(0);

    expect((await authCall("POST", "/otp", { email }, { ip: uniqueIp(), overrides: limits })).status).toBe(200);

    // The next window starts over.
    vi.setSystemTime(start + 300_000);
    expect((await authCall("POST", "/otp", { email: uniqueEmail("nextwindow") }, { ip, overrides: limits })).status).toBe(200);
  });

  it("/verify: limited per IP, so guessing from one address stops; the user signs in from theirs", async () => {
    const email = uniqueEmail("verifylimit");
    const code = await requestCode(email);
    const attacker = uniqueIp();
    for (let index = 0; index < 3; index += 1) await verify(uniqueEmail("guess"), "000000", { ip: attacker, overrides: limits });
    await expectAuthError(await verify(email, code, { ip: attacker, overrides: limits }), 429, "over_request_rate_limit");
    expect((await verify(email, code, { ip: uniqueIp(), overrides: limits })).status).toBe(200);
  });

  it("/token: limited per IP", async () => {
    const session = await signIn(uniqueEmail("tokenlimit"));
    const ip = uniqueIp();
    for (let index = 0; index < 3; index += 1) await refresh("unknown-token", { ip, overrides: limits });
    await expectAuthError(await refresh(session.refresh_token, { ip, overrides: limits }), 429, "over_request_rate_limit");
    expect((await refresh(session.refresh_token, { ip: uniqueIp(), overrides: limits })).status).toBe(200);
  });

  it("counts each route separately", async () => {
    const ip = uniqueIp();
    for (let index = 0; index < 3; index += 1) await refresh("unknown-token", { ip, overrides: limits });
    expect((await authCall("POST", "/otp", { email: uniqueEmail("separate") }, { ip, overrides: limits })).status).toBe(200);
  });
});

describe("per-IP limits fail closed", () => {
  /** A database where only the counters table cannot be written. */
  const overrides = () => ({ DB: databaseFailingOn("hwh_rate_limits") });

  async function expectFailedClosed(response: Response): Promise<void> {
    const body = await expectAuthError(response, 500, "unexpected_failure");
    expect(Object.keys(body).sort()).toEqual(["code", "error_code", "message", "msg"]);
    expect(body.message).toBe("Something went wrong. Please try again.");
  }

  it("/otp: when the client's counter cannot be written, 500 in GoTrue's shape; no code is stored or sent", async () => {
    const email = uniqueEmail("failclosed");
    await expectFailedClosed(await authCall("POST", "/otp", { email }, { overrides: overrides() }));
    expect(await codeRow(email)).toBeNull();
    expect(await codeMailCount(email)).toBe(0);
  });

  it("/verify and /token: 500, and the code is not used, the refresh token not rotated", async () => {
    const email = uniqueEmail("failclosed-verify");
    const code = await requestCode(email);
    await expectFailedClosed(await verify(email, code, { overrides: overrides() }));
    expect(await codeRow(email)).toMatchObject({ attempts: 0 });
    expect(await countAuthRows("hwh_auth_users", "email = ?", email)).toBe(0);

    const session = (await (await verify(email, code)).json()) as { refresh_token: string };
    await expectFailedClosed(await refresh(session.refresh_token, { overrides: overrides() }));
    expect((await refresh(session.refresh_token)).status).toBe(200);
  });

  it("/admin/*: 500, even with the right key", async () => {
    await expectFailedClosed(
      await authCall("GET", "/admin/users", undefined, { headers: { Authorization: `Bearer ${ADMIN_KEY}` }, overrides: overrides() }),
    );
  });
});

describe("routes auth-js has that are not enabled", () => {
  it.each([
    ["POST", "/signup", "signup_disabled", { email: "a@example.com", password: "secret123" }],
    ["POST", "/recover", "feature_not_enabled", { email: "a@example.com" }],
    ["POST", "/resend", "feature_not_enabled", { email: "a@example.com", type: "signup" }],
    ["POST", "/magiclink", "feature_not_enabled", { email: "a@example.com" }],
    ["GET", "/reauthenticate", "feature_not_enabled", undefined],
    ["PUT", "/user", "feature_not_enabled", { data: { a: 1 } }],
    ["GET", "/authorize?provider=github", "provider_disabled", undefined],
    ["POST", "/sso", "saml_provider_disabled", { domain: "example.com" }],
    ["POST", "/factors", "feature_not_enabled", { factor_type: "totp" }],
    ["POST", "/factors/abc/challenge", "feature_not_enabled", {}],
    ["DELETE", "/factors/abc", "feature_not_enabled", undefined],
    ["GET", "/user/identities/authorize?provider=github", "manual_linking_disabled", undefined],
    ["DELETE", "/user/identities/abc", "manual_linking_disabled", undefined],
  ])("%s %s answers 422 %s in GoTrue's shape", async (method, path, code, body) => {
    const response = await authCall(method, path, body);
    const error = await expectAuthError(response, 422, code);
    expect(error.message).toContain("is not enabled on this service");
    expect(response.headers.get("Content-Type")).toContain("application/json");
  });

  it("an unknown path under /auth is a JSON 404; a known path's other method a 405 with Allow", async () => {
    await expectAuthError(await authCall("GET", "/nothing-here"), 404, "not_found");
    await expectAuthError(await call("/auth/v2/otp"), 404, "not_found");
    const wrongMethod = await authCall("GET", "/otp");
    await expectAuthError(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.get("Allow")).toBe("POST");
    expect((await authCall("DELETE", "/logout")).headers.get("Allow")).toBe("POST");
  });

  it("describes itself: /settings, /health and an empty key set", async () => {
    expect(await (await authCall("GET", "/settings")).json()).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
    });
    expect((await authCall("GET", "/health")).status).toBe(200);
    expect(await (await authCall("GET", "/.well-known/jwks.json")).json()).toEqual({ keys: [] });
  });
});

describe("housekeeping (cron)", () => {
  it("removes counters of past windows, codes last sent over a day ago and refresh tokens used more than 30 days ago; keeps tokens used 29 days ago", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const ip = uniqueIp();
    const email = uniqueEmail("prune");
    const session = await signIn(email, { ip });
    await refresh(session.refresh_token, { ip });
    const userId = session.user.id;
    const counters = () =>
      env.DB.prepare("select count(*) as n from hwh_rate_limits where key in (?, ?, ?)")
        .bind(...["otp", "verify", "token"].map((route) => `${route}:${clientKeyOf(ip)}`))
        .first<{ n: number }>();
    expect((await counters())!.n).toBe(3);
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(1);

    // A refresh token used 29 days before the run is kept, so its reuse is still recognised.
    vi.setSystemTime(start + 2 * 24 * 60 * 60 * 1000);
    const kept = await signIn(uniqueEmail("prune-kept"));
    expect((await refresh(kept.refresh_token)).status).toBe(200);

    // A code sent 23 hours before the run stays (its caps still count); so does one sent just now.
    const recent = uniqueEmail("prune-recent");
    vi.setSystemTime(start + 30 * 24 * 60 * 60 * 1000 + 60 * 60 * 1000);
    await requestCode(recent);
    const now = uniqueEmail("prune-now");
    vi.setSystemTime(start + 31 * 24 * 60 * 60 * 1000);
    await requestCode(now);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect((await counters())!.n).toBe(0);
    expect(await countAuthRows("hwh_auth_codes", "email = ?", email)).toBe(0);
    expect(await countAuthRows("hwh_auth_codes", "email in (?, ?)", recent, now)).toBe(2);
    expect(
      await countAuthRows(
        "hwh_auth_refresh_tokens",
        "revoked_at is not null and session_id in (select id from hwh_auth_sessions where user_id = ?)",
        userId,
      ),
    ).toBe(0);
    // The session itself and its live token stay.
    expect(
      await countAuthRows(
        "hwh_auth_refresh_tokens",
        "revoked_at is null and session_id in (select id from hwh_auth_sessions where user_id = ?)",
        userId,
      ),
    ).toBe(1);
    expect(
      await countAuthRows(
        "hwh_auth_refresh_tokens",
        "revoked_at is not null and session_id in (select id from hwh_auth_sessions where user_id = ?)",
        kept.user.id,
      ),
    ).toBe(1);
  });
});

describe("who a client is for the per-IP limits", () => {
  // Who a client is for the per-IP limits: CF-Connecting-IP only, an IPv6 client per /64, forwarding headers ignored.

  const WINDOW_MS = 300_000;

  beforeEach(() => {
    // 10 s into a window of the default 300 s, so no request crosses into the next one.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / WINDOW_MS) * WINDOW_MS + 10_000);
  });

  /** A random 16-bit group in hex. */
  const group = () => Math.floor(Math.random() * 0x10000).toString(16);

  /** The first four groups of a random /64 in the documentation range. */
  const randomNet = () => `2001:db8:${group()}:${group()}`;

  /** The `index`th address of a /64, written in the several ways an address can be. */
  function addressIn(net: string, index: number): string {
    const forms = [
      `${net}::${index.toString(16)}`,
      `${net}:${group()}:${group()}:${group()}:${index.toString(16)}`,
      `${net.toUpperCase()}:0:0:${group()}:${index.toString(16)}`,
    ];
    return forms[index % forms.length]!;
  }

  describe("per-IP limits: who the client is", () => {
    it("the addresses of one IPv6 /64 share one allowance: of 35 requests to /otp the 31st on are refused", async () => {
      const net = randomNet();
      const emails = Array.from({ length: 35 }, () => uniqueEmail("v6"));
      const statuses: number[] = [];
      // An allowance of 30 set here, so the /64 is what this checks, whatever the default.
      const overrides = { AUTH_RATE_LIMIT_OTP: "30" };
      for (const [index, email] of emails.entries()) {
        const response = await authCall("POST", "/otp", { email }, { ip: addressIn(net, index + 1), overrides });
        statuses.push(response.status);
        if (index >= 30) {
          await expectAuthError(response, 429, "over_request_rate_limit");
          expect(response.headers.get("Retry-After")).toBe("290");
        }
      }
      expect(statuses).toEqual([...Array.from({ length: 30 }, () => 200), ...Array.from({ length: 5 }, () => 429)]);
      // The refused requests stored nothing.
      for (const email of emails.slice(30)) expect(await codeRow(email)).toBeNull();

      // Another /64, even next to this one in the same /48, has its own allowance.
      const [a, b, c, d] = net.split(":");
      const neighbour = `${a}:${b}:${c}:${(parseInt(d!, 16) ^ 1).toString(16)}::1`;
      expect((await authCall("POST", "/otp", { email: uniqueEmail("v6other") }, { ip: neighbour })).status).toBe(200);
      expect((await authCall("POST", "/otp", { email: uniqueEmail("v6other") }, { ip: `${randomNet()}::1` })).status).toBe(200);
    });

    it("/verify counts an IPv6 client per /64 too", async () => {
      const net = randomNet();
      const overrides = { AUTH_RATE_LIMIT_VERIFY: "3" };
      for (let index = 1; index <= 3; index += 1) {
        await expectAuthError(
          await verify(uniqueEmail("v6verify"), "000000", { ip: addressIn(net, index), overrides }),
          403,
          "otp_expired",
        );
      }
      await expectAuthError(
        await verify(uniqueEmail("v6verify"), "000000", { ip: addressIn(net, 99), overrides }),
        429,
        "over_request_rate_limit",
      );
    });

    it("X-Forwarded-For, X-Real-IP, True-Client-IP and Forwarded never give a client a new allowance", async () => {
      const ip = `${randomNet()}::7`;
      const statuses: number[] = [];
      for (let index = 1; index <= 35; index += 1) {
        const headers = {
          "X-Forwarded-For": `198.51.100.${index}, 203.0.113.${index}`,
          "X-Real-IP": `198.51.100.${index}`,
          "True-Client-IP": `203.0.113.${index}`,
          Forwarded: `for=198.51.100.${index};proto=https`,
        };
        const overrides = { AUTH_RATE_LIMIT_OTP: "30" };
        statuses.push((await authCall("POST", "/otp", { email: uniqueEmail("spoof") }, { ip, headers, overrides })).status);
      }
      expect(statuses).toEqual([...Array.from({ length: 30 }, () => 200), ...Array.from({ length: 5 }, () => 429)]);
    });

    it("an IPv4 client is its address: its neighbour is not affected", async () => {
      const overrides = { AUTH_RATE_LIMIT_OTP: "2" };
      const last = Math.floor(Math.random() * 250) + 1;
      const ask = (ip: string) => authCall("POST", "/otp", { email: uniqueEmail("v4") }, { ip, overrides });
      expect((await ask(`192.0.2.${last}`)).status).toBe(200);
      expect((await ask(`192.0.2.${last}`)).status).toBe(200);
      await expectAuthError(await ask(`192.0.2.${last}`), 429, "over_request_rate_limit");
      expect((await ask(`192.0.2.${last + 1}`)).status).toBe(200);
    });
  });

  describe("a class on one school network (the waitlist's rule: 40 within ten minutes are never refused)", () => {
    it("40 students and their teacher sign in from one address within one window: all get codes and sessions", async () => {
      const school = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
      const emails = Array.from({ length: 41 }, (_, index) => uniqueEmail(index === 40 ? "teacher" : "student"));
      // All within the window the beforeEach starts in, 6 s apart (the worst case: one window holds them all).
      const windowStart = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
      for (const [index, email] of emails.entries()) {
        vi.setSystemTime(windowStart + 10_000 + index * 6_000);
        const code = await requestCode(email, { ip: school });
        const session = await verify(email, code, { ip: school });
        expect(session.status, `sign-in ${index + 1}`).toBe(200);
      }
    });

    it("past 60 code requests (and 60 verifies) from one network in a window: 429 until the window ends", async () => {
      const school = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
      for (let index = 0; index < 60; index += 1) {
        expect((await authCall("POST", "/otp", { email: uniqueEmail("crowd") }, { ip: school })).status, `request ${index + 1}`).toBe(200);
      }
      const refused = await authCall("POST", "/otp", { email: uniqueEmail("crowd") }, { ip: school });
      await expectAuthError(refused, 429, "over_request_rate_limit");
      expect(refused.headers.get("Retry-After")).toBe("290");
      for (let index = 0; index < 60; index += 1)
        await expectAuthError(await verify(uniqueEmail("guess"), "000000", { ip: school }), 403, "otp_expired");
      await expectAuthError(await verify(uniqueEmail("guess"), "000000", { ip: school }), 429, "over_request_rate_limit");
    });
  });

  describe("clientKey", () => {
    it.each([
      ["203.0.113.7", "203.0.113.7"],
      ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
      ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
      ["2001:DB8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
      ["[2001:db8:1:2::9]", "2001:db8:1:2::/64"],
      ["fe80::1%eth0", "fe80:0:0:0::/64"],
      ["2001:db8::", "2001:db8:0:0::/64"],
      ["::ffff:198.51.100.9", "198.51.100.9"],
      ["::ffff:c633:6409", "198.51.100.9"],
      ["2001:db8:1:2:3:4:198.51.100.9", "2001:db8:1:2::/64"],
    ])("%s counts as %s", (address, key) => {
      expect(clientKey(address)).toBe(key);
    });

    it("no address is the shared key 'unknown'", () => {
      expect(clientKey(null)).toBe("unknown");
    });

    it("every address of a /64 is one key, another /64 another", () => {
      expect(new Set(Array.from({ length: 20 }, (_, index) => clientKey(addressIn("2001:db8:aa:bb", index + 1))))).toEqual(
        new Set(["2001:db8:aa:bb::/64"]),
      );
      expect(clientKey("2001:db8:aa:bc::1")).not.toBe(clientKey("2001:db8:aa:bb::1"));
    });
  });
});
