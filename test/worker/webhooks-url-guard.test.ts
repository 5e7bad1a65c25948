import { afterEach, describe, expect, it, vi } from "vitest";
import type { Deps } from "../../worker/deps";
import { checkWebhookUrl } from "../../worker/features/webhooks/url-guard";

/** The DoH stand-in: names to their A and AAAA answers; a name it does not know has none (NXDOMAIN). */
type Zone = Record<string, { A?: string[]; AAAA?: string[] }>;
const DNS_URL = "https://dns.test/dns-query";

function fakeDns(zone: Zone, mode: "answer" | "fail" = "answer") {
  const asked: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const url = new URL(request.url);
    if (`${url.origin}${url.pathname}` !== DNS_URL) throw new Error(`unexpected outbound request to ${request.url}`);
    expect(request.headers.get("accept")).toBe("application/dns-json");
    const name = url.searchParams.get("name") ?? "";
    const type = url.searchParams.get("type") as "A" | "AAAA";
    asked.push(`${name} ${type}`);
    if (mode === "fail") return new Response("upstream down", { status: 502 });
    const records = zone[name]?.[type] ?? [];
    const Answer = records.map((data) => ({ name, type: type === "A" ? 1 : 28, TTL: 60, data }));
    return Response.json({ Status: zone[name] ? 0 : 3, Answer });
  });
  return asked;
}

const deps = (isDevelopment = false) => ({ config: { isDevelopment, webhooks: { dnsUrl: DNS_URL } } }) as unknown as Pick<Deps, "config">;
const reasonOf = async (raw: string, development = false) => {
  const verdict = await checkWebhookUrl(deps(development), raw);
  return verdict.ok ? "ok" : verdict.reason;
};

const LOOPBACK = "The address points to this machine (loopback).";
const PRIVATE = "The address points to a private network.";
const LINK_LOCAL = "The address points to a link-local network.";
const METADATA = "The address points to a cloud metadata service.";
const RESERVED = "The address points to a reserved, multicast or unspecified address.";
const INTERNAL = "The address names an internal host.";

afterEach(() => vi.restoreAllMocks());

describe("webhook URL guard: the address itself", () => {
  it("accepts a public https address whose name resolves to public addresses only", async () => {
    fakeDns({ "hooks.example.com": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1:248:1893:25c8:1946"] } });
    const verdict = await checkWebhookUrl(deps(), "  https://hooks.example.com/in?x=1 ");
    expect(verdict).toEqual({ ok: true, url: new URL("https://hooks.example.com/in?x=1") });
  });

  it("accepts a public IP literal without asking the resolver", async () => {
    const asked = fakeDns({});
    expect(await reasonOf("https://93.184.216.34/hook")).toBe("ok");
    expect(await reasonOf("https://[2606:4700::1111]/hook")).toBe("ok");
    expect(asked).toEqual([]);
  });

  it("refuses anything but https", async () => {
    fakeDns({ "hooks.example.com": { A: ["93.184.216.34"] } });
    for (const raw of [
      "http://hooks.example.com/in",
      "ftp://hooks.example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "gopher://hooks.example.com/",
    ]) {
      expect(await reasonOf(raw), raw).toBe("The address must use https.");
    }
  });

  it("refuses what is not a URL, an empty address and an overlong one", async () => {
    expect(await reasonOf("hooks.example.com/in")).toMatch(/^The address is not a valid URL/);
    expect(await reasonOf("https://[::1/")).toMatch(/^The address is not a valid URL/);
    expect(await reasonOf("   ")).toBe("The address is required.");
    expect(await reasonOf(`https://hooks.example.com/${"a".repeat(2100)}`)).toBe("The address must be at most 2048 characters.");
  });

  it("refuses a user name or password in the address (user:pass@)", async () => {
    fakeDns({ "hooks.example.com": { A: ["93.184.216.34"] } });
    for (const raw of [
      "https://user:pass@hooks.example.com/",
      "https://user@hooks.example.com/",
      "https://:pw@hooks.example.com/",
      "https://hooks.example.com@127.0.0.1/",
    ]) {
      expect(await reasonOf(raw), raw).toBe("The address must not contain a user name or password.");
    }
  });
});

/** Every spelling of a refused address, with the reason it gets. */
const SPELLINGS: [string, string][] = [
  ["https://127.0.0.1/", LOOPBACK],
  ["https://127.1/", LOOPBACK],
  ["https://127.0.1/", LOOPBACK],
  ["https://2130706433/", LOOPBACK],
  ["https://0x7f000001/", LOOPBACK],
  ["https://0x7f.0x0.0x0.0x1/", LOOPBACK],
  ["https://0177.0.0.1/", LOOPBACK],
  ["https://017700000001/", LOOPBACK],
  ["https://127.0.0.1./", LOOPBACK],
  ["https://127.255.255.254:8443/x", LOOPBACK],
  ["https://[::1]/", LOOPBACK],
  ["https://[0:0:0:0:0:0:0:1]/", LOOPBACK],
  ["https://[::ffff:127.0.0.1]/", LOOPBACK],
  ["https://[::ffff:7f00:1]/", LOOPBACK],
  ["https://[::127.0.0.1]/", LOOPBACK],
  ["https://localhost/", LOOPBACK],
  ["https://LOCALHOST./", LOOPBACK],
  ["https://api.localhost/", LOOPBACK],
  ["https://10.0.0.5/", PRIVATE],
  ["https://167772165/", PRIVATE],
  ["https://012.0.0.5/", PRIVATE],
  ["https://172.16.0.1/", PRIVATE],
  ["https://172.31.255.255/", PRIVATE],
  ["https://192.168.1.1/", PRIVATE],
  ["https://0xc0a80101/", PRIVATE],
  ["https://100.64.0.1/", PRIVATE],
  ["https://100.127.255.255/", PRIVATE],
  ["https://[fc00::1]/", PRIVATE],
  ["https://[fd12:3456::1]/", PRIVATE],
  ["https://[::ffff:10.0.0.1]/", PRIVATE],
  ["https://[::ffff:c0a8:101]/", PRIVATE],
  ["https://[64:ff9b::10.0.0.1]/", PRIVATE],
  ["https://[64:ff9b::c0a8:101]/", PRIVATE],
  ["https://[2002:c0a8:101::1]/", PRIVATE],
  ["https://[2002:0a00:0001::]/", PRIVATE],
  ["https://[2002:7f00:1::]/", LOOPBACK],
  ["https://169.254.1.1/", LINK_LOCAL],
  ["https://[fe80::1]/", LINK_LOCAL],
  ["https://[::ffff:169.254.0.1]/", LINK_LOCAL],
  ["https://169.254.169.254/latest/meta-data/", METADATA],
  ["https://2852039166/", METADATA],
  ["https://0xa9fea9fe/", METADATA],
  ["https://0251.0376.0251.0376/", METADATA],
  ["https://[::ffff:169.254.169.254]/", METADATA],
  ["https://[fd00:ec2::254]/", METADATA],
  ["https://[64:ff9b::a9fe:a9fe]/", METADATA],
  ["https://metadata.google.internal/computeMetadata/v1/", METADATA],
  ["https://metadata/", METADATA],
  ["https://100.100.100.200/", METADATA],
  ["https://0.0.0.0/", RESERVED],
  ["https://0/", RESERVED],
  ["https://[::]/", RESERVED],
  ["https://255.255.255.255/", RESERVED],
  ["https://224.0.0.1/", RESERVED],
  ["https://240.0.0.1/", RESERVED],
  ["https://[ff02::1]/", RESERVED],
  ["https://[2001:db8::1]/", RESERVED],
  ["https://192.0.2.10/", RESERVED],
  ["https://db.internal/", INTERNAL],
  ["https://printer.local/", INTERNAL],
  ["https://nas.home.arpa/", INTERNAL],
];

describe("webhook URL guard: refused addresses in every spelling", () => {
  for (const [raw, reason] of SPELLINGS) {
    it(`refuses ${raw}`, async () => {
      const asked = fakeDns({});
      expect(await reasonOf(raw)).toBe(reason);
      expect(asked, "refused before any lookup").toEqual([]);
    });
  }
});

describe("webhook URL guard: names resolved over DNS over HTTPS", () => {
  it("asks the resolver for A and AAAA records of the host, as dns-json", async () => {
    const asked = fakeDns({ "hooks.example.com": { A: ["93.184.216.34"] } });
    expect(await reasonOf("https://Hooks.Example.com./in")).toBe("ok");
    expect(asked.sort()).toEqual(["hooks.example.com A", "hooks.example.com AAAA"]);
  });

  it("refuses a name that resolves to a private address (nip.io-style names)", async () => {
    fakeDns({ "10.0.0.1.nip.io": { A: ["10.0.0.1"] }, "127.0.0.1.nip.io": { A: ["127.0.0.1"] } });
    expect(await reasonOf("https://10.0.0.1.nip.io/")).toBe("The address's host name resolves to a private network.");
    expect(await reasonOf("https://127.0.0.1.nip.io/")).toBe("The address's host name resolves to this machine (loopback).");
  });

  it("refuses a name when any one of its answers is refused (a public A beside a private AAAA)", async () => {
    fakeDns({ "mixed.example.com": { A: ["93.184.216.34"], AAAA: ["::ffff:169.254.169.254"] } });
    expect(await reasonOf("https://mixed.example.com/")).toBe("The address's host name resolves to a cloud metadata service.");
  });

  it("refuses a name whose AAAA answer is a NAT64 or 6to4 form of a private address", async () => {
    fakeDns({ "nat64.example.com": { AAAA: ["64:ff9b::a00:1"] }, "sixto4.example.com": { AAAA: ["2002:c0a8:0101::1"] } });
    expect(await reasonOf("https://nat64.example.com/")).toBe("The address's host name resolves to a private network.");
    expect(await reasonOf("https://sixto4.example.com/")).toBe("The address's host name resolves to a private network.");
  });

  it("refuses a name that has no address (NXDOMAIN), failing closed", async () => {
    fakeDns({});
    expect(await reasonOf("https://nowhere.example.com/")).toBe("The address's host name could not be resolved.");
  });

  it("refuses every name while the resolver fails, failing closed", async () => {
    fakeDns({ "hooks.example.com": { A: ["93.184.216.34"] } }, "fail");
    expect(await reasonOf("https://hooks.example.com/")).toMatch(/^The address's host name could not be resolved/);
  });

  it("refuses every name while the resolver cannot be reached", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network connection lost"));
    expect(await reasonOf("https://hooks.example.com/")).toMatch(/^The address's host name could not be resolved/);
  });

  it("refuses a single-label name without asking the resolver", async () => {
    const asked = fakeDns({});
    expect(await reasonOf("https://corpbox/")).toBe("The address must name a public host (a full domain name).");
    expect(asked).toEqual([]);
  });
});

describe("webhook URL guard: development's exception", () => {
  it("allows http://127.0.0.1:<port> and http://localhost:<port> in development", async () => {
    const asked = fakeDns({});
    expect(await reasonOf("http://127.0.0.1:8787/hook", true)).toBe("ok");
    expect(await reasonOf("http://localhost:3000/hook", true)).toBe("ok");
    expect(asked).toEqual([]);
  });

  it("refuses them in production", async () => {
    fakeDns({});
    expect(await reasonOf("http://127.0.0.1:8787/hook")).toBe("The address must use https.");
    expect(await reasonOf("http://localhost:3000/hook")).toBe("The address must use https.");
    expect(await reasonOf("https://127.0.0.1:8787/hook")).toBe(LOOPBACK);
  });

  it("still refuses other private addresses and plain http elsewhere in development", async () => {
    fakeDns({});
    expect(await reasonOf("http://10.0.0.1:8080/", true)).toBe("The address must use https.");
    expect(await reasonOf("https://192.168.1.1/", true)).toBe(PRIVATE);
    expect(await reasonOf("http://user:pw@127.0.0.1:8787/", true)).toBe("The address must not contain a user name or password.");
  });
});
