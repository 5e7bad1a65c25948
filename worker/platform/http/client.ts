/**
 * Who the client is, for per-client limits: the address Cloudflare puts in CF-Connecting-IP,
 * which a client cannot set through Cloudflare. X-Forwarded-For, X-Real-IP, True-Client-IP and
 * Forwarded are never read: anyone can write them.
 */

/** The client's address as Cloudflare reports it; null when there is none (a local run). */
export function clientAddress(headers: Headers): string | null {
  return headers.get("cf-connecting-ip")?.trim() || null;
}

/**
 * The key a client's requests are counted under. An IPv4 address is one client. An IPv6 client
 * is its /64 network: one home or phone is usually given a whole /64, so counting single
 * addresses would let it take 2^64 allowances. IPv4-mapped IPv6 addresses count as IPv4.
 * Without an address (local runs without Cloudflare) every client shares "unknown".
 */
export function clientKey(address: string | null): string {
  if (!address) return "unknown";
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address.slice(0, 64).toLowerCase();
  const isV4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isV4Mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (with "::" and a dotted IPv4 tail expanded), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const bytes = v4.slice(1).map(Number);
    if (bytes.some((byte) => byte > 255)) return null;
    text = `${text.slice(0, v4.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return all.map((group) => parseInt(group, 16));
}
