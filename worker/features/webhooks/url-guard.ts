import type { Deps } from "../../deps";
import { type Blocked, blockedAddress } from "./ip-ranges";

/**
 * Which addresses the product may call (issue 25 §3): https only, no user name or password, and no
 * host that names or resolves to a loopback, private, link-local, metadata or reserved address, in
 * any spelling (the WHATWG URL parser turns decimal, hex, octal and short IPv4 forms into dotted
 * ones; ip-ranges.ts judges IPv6 forms that carry an IPv4 address by it). A host name is resolved
 * through DNS over HTTPS (WEBHOOK_DNS_URL): one refused answer refuses the address, and a name
 * that cannot be resolved is refused too (failing closed). The one exception: in development,
 * 127.0.0.1 and localhost, so a team can try a receiver on their machine. Checked when an
 * endpoint is saved and again before every call (deliver.ts).
 */

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The longest address accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How long the resolver has to answer. */
export const DNS_TIMEOUT_MS = 3000;

const PLACES: Record<Blocked, string> = {
  loopback: "this machine (loopback)",
  private: "a private network",
  "link-local": "a link-local network",
  metadata: "a cloud metadata service",
  reserved: "a reserved, multicast or unspecified address",
};

/** Names of hosts that are never public: loopback and local or internal zones, and the clouds' metadata services. */
const LOOPBACK_NAMES = ["localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"];
const INTERNAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "lan", "intranet", "home.arpa", "in-addr.arpa", "ip6.arpa"];
const METADATA_NAMES = ["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"];

const refused = (reason: string): UrlVerdict => ({ ok: false, reason });

/** Why a host name (lower case, no trailing dot) is refused by its name alone, or null. */
function refusedName(host: string): string | null {
  if (METADATA_NAMES.includes(host)) return `The address points to ${PLACES.metadata}.`;
  if (LOOPBACK_NAMES.includes(host) || host.endsWith(".localhost")) return `The address points to ${PLACES.loopback}.`;
  if (INTERNAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return "The address names an internal host.";
  if (!host.includes(".")) return "The address must name a public host (a full domain name).";
  return null;
}

type DnsAnswer = { Status?: number; Answer?: { type?: number; data?: string }[] };

/** The addresses of one record type a host has (A: 1, AAAA: 28); throws when the resolver fails. */
async function lookup(dnsUrl: string, host: string, type: "A" | "AAAA"): Promise<string[]> {
  const url = new URL(dnsUrl);
  url.searchParams.set("name", host);
  url.searchParams.set("type", type);
  const response = await fetch(url.toString(), {
    headers: { Accept: "application/dns-json" },
    redirect: "manual",
    signal: AbortSignal.timeout(DNS_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`resolver answered ${response.status}`);
  const answer = (await response.json()) as DnsAnswer;
  if (answer.Status !== undefined && answer.Status !== 0 && answer.Status !== 3) throw new Error(`resolver status ${answer.Status}`);
  const code = type === "A" ? 1 : 28;
  return (answer.Answer ?? [])
    .filter((record) => record.type === code && typeof record.data === "string")
    .map((record) => String(record.data));
}

/** Resolves a host name and refuses it when any of its addresses is refused, or when it has none. */
async function checkResolved(dnsUrl: string, host: string): Promise<string | null> {
  let addresses: string[];
  try {
    const [v4, v6] = await Promise.all([lookup(dnsUrl, host, "A"), lookup(dnsUrl, host, "AAAA")]);
    addresses = [...v4, ...v6];
  } catch {
    return "The address's host name could not be resolved (the check fails closed); try again later.";
  }
  if (addresses.length === 0) return "The address's host name could not be resolved.";
  for (const address of addresses) {
    const blocked = blockedAddress(address);
    if (blocked === undefined) return "The address's host name resolves to something that is not an IP address.";
    if (blocked) return `The address's host name resolves to ${PLACES[blocked]}.`;
  }
  return null;
}

/** Development's exception: plain http to a receiver on the team's own machine (127.0.0.1 or localhost). */
function isDevelopmentLoopback(url: URL): boolean {
  return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost");
}

/** Whether the product may call this address, and why not. */
export async function checkWebhookUrl(deps: Pick<Deps, "config">, raw: string): Promise<UrlVerdict> {
  const text = raw.trim();
  if (text === "") return refused("The address is required.");
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refused(`The address must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused("The address is not a valid URL (it must look like https://example.com/hooks).");
  }
  if (url.username !== "" || url.password !== "") return refused("The address must not contain a user name or password.");
  if (deps.config.isDevelopment && isDevelopmentLoopback(url)) return { ok: true, url };
  if (url.protocol !== "https:") return refused("The address must use https.");
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return refused("The address must name a host.");
  const literal = blockedAddress(host);
  if (literal) return refused(`The address points to ${PLACES[literal]}.`);
  if (literal === null) return { ok: true, url };
  // A bracketed host that is not a valid IPv6 address never parses as a URL; anything else here is a name.
  if (host.startsWith("[")) return refused("The address is not a valid URL (it must look like https://example.com/hooks).");
  const byName = refusedName(host);
  if (byName) return refused(byName);
  const resolved = await checkResolved(deps.config.webhooks.dnsUrl, host);
  return resolved ? refused(resolved) : { ok: true, url };
}
