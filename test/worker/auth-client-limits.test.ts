// Who a client is for the per-IP limits: CF-Connecting-IP only, an IPv6 client per /64, forwarding headers ignored.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { clientKey } from "../../worker/platform/http/client";
import { authCall, codeRow, expectAuthError, verify } from "../support/auth";
import { uniqueEmail } from "../support/worker";

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
    for (const [index, email] of emails.entries()) {
      const response = await authCall("POST", "/otp", { email }, { ip: addressIn(net, index + 1) });
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
      await expectAuthError(await verify(uniqueEmail("v6verify"), "000000", { ip: addressIn(net, index), overrides }), 403, "otp_expired");
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
      statuses.push((await authCall("POST", "/otp", { email: uniqueEmail("spoof") }, { ip, headers })).status);
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
