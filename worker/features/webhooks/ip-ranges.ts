/**
 * Which IP addresses a webhook may not reach (issue 25 §3), for url-guard.ts: loopback, private
 * (RFC 1918, CGNAT, unique-local), link-local, cloud metadata, and the unspecified, broadcast,
 * multicast, documentation and reserved ranges. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that address;
 * besides those, only global unicast IPv6 (2000::/3) is allowed.
 */

/** Why an address is refused. */
export type Blocked = "loopback" | "private" | "link-local" | "metadata" | "reserved";

/** A dotted IPv4 address (four decimal parts 0-255) as its four bytes, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number.parseInt(part, 10);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/** An IPv6 address (with "::", an embedded dotted IPv4 tail, no zone) as its sixteen bytes, or null. */
export function parseIPv6(text: string): number[] | null {
  let rest = text.toLowerCase();
  if (rest.startsWith("[") && rest.endsWith("]")) rest = rest.slice(1, -1);
  if (rest.includes("%") || rest.split("::").length > 2) return null;
  const groupsOf = (side: string): number[] | null => {
    if (side === "") return [];
    const words: number[] = [];
    const pieces = side.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (!v4) return null;
        words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        words.push(Number.parseInt(piece, 16));
      } else {
        return null;
      }
    }
    return words;
  };
  const [head = "", tail] = rest.split("::");
  const before = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  if (!before || !after) return null;
  const missing = 8 - before.length - after.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const words = [...before, ...new Array<number>(tail === undefined ? 0 : missing).fill(0), ...after];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/** Four bytes as one unsigned 32-bit number. */
function uint32(bytes: readonly number[]): number {
  return (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
}

function inV4(bytes: number[], base: [number, number, number, number], prefix: number): boolean {
  const value = uint32(bytes);
  const start = uint32(base);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === (start & mask) >>> 0;
}

const V4_RANGES: [[number, number, number, number], number, Blocked][] = [
  [[169, 254, 169, 254], 32, "metadata"],
  [[100, 100, 100, 200], 32, "metadata"],
  [[0, 0, 0, 0], 8, "reserved"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "private"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "reserved"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[198, 51, 100, 0], 24, "reserved"],
  [[203, 0, 113, 0], 24, "reserved"],
  [[224, 0, 0, 0], 4, "reserved"],
  [[240, 0, 0, 0], 4, "reserved"],
];

/** Why an IPv4 address (four bytes) is refused, or null when it is a public one. */
export function blockedIPv4(bytes: number[]): Blocked | null {
  for (const [base, prefix, why] of V4_RANGES) if (inV4(bytes, base, prefix)) return why;
  return null;
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

const METADATA_V6 = parseIPv6("fd00:ec2::254") as number[];

/** Why an IPv6 address (sixteen bytes) is refused, or null when it is a public one. */
export function blockedIPv6(bytes: number[]): Blocked | null {
  const at = (index: number) => bytes[index] ?? 0;
  const zeros = (count: number) => bytes.slice(0, count).every((byte) => byte === 0);
  if (bytes.every((byte, index) => byte === METADATA_V6[index])) return "metadata";
  if (zeros(15) && at(15) === 1) return "loopback";
  if (zeros(16)) return "reserved";
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated): the IPv4 address decides.
  if (zeros(10) && at(10) === 0xff && at(11) === 0xff) return blockedIPv4(bytes.slice(12));
  if (zeros(12)) return blockedIPv4(bytes.slice(12));
  if (zeros(8) && at(8) === 0xff && at(9) === 0xff && at(10) === 0 && at(11) === 0) return blockedIPv4(bytes.slice(12));
  // NAT64 (64:ff9b::/96) carries the IPv4 address in its last four bytes; the local-use 64:ff9b:1::/48 is private.
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return blockedIPv4(bytes.slice(12));
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1])) return "private";
  // 6to4 (2002::/16) carries the IPv4 address in bytes 2-5.
  if (startsWith(bytes, [0x20, 0x02])) return blockedIPv4(bytes.slice(2, 6));
  if ((at(0) & 0xfe) === 0xfc) return "private";
  if (at(0) === 0xfe && (at(1) & 0xc0) === 0x80) return "link-local";
  if (at(0) === 0xfe && (at(1) & 0xc0) === 0xc0) return "private";
  // Teredo (2001::/32) hides its IPv4 address, and 2001:db8::/32 is documentation: neither is a receiver.
  if (startsWith(bytes, [0x20, 0x01, 0, 0]) || startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8])) return "reserved";
  // Everything else outside global unicast (multicast ff00::/8, discard 100::/64, unassigned) is refused.
  if ((at(0) & 0xe0) !== 0x20) return "reserved";
  return null;
}

/** Why an IP address written as text (dotted IPv4, or IPv6 with or without brackets) is refused; undefined when the text is not an IP address. */
export function blockedAddress(text: string): Blocked | null | undefined {
  const v4 = parseIPv4(text);
  if (v4) return blockedIPv4(v4);
  const v6 = text.includes(":") ? parseIPv6(text) : null;
  if (v6) return blockedIPv6(v6);
  return undefined;
}
