// Outbound safety: where a webhook may connect. Link-local (cloud metadata at 169.254.169.254, fe80::/10) is
// always refused; private, loopback and other non-public ranges unless WEBHOOK_ALLOW_PRIVATE=1. IPv6 forms that
// carry an IPv4 address are judged by the IPv4 address they reach. Checked after DNS, and the socket connects
// to that same address (no second lookup to rebind).
import { lookup } from "node:dns/promises";
import { parseIp } from "./parse-ip";

type Kind = "never" | "private";
type Range = { prefix: number[]; bits: number; kind: Kind; what: string };

const v4 = (dotted: string) => dotted.split(".").map(Number);
const v6 = (groups: number[]) => groups.flatMap((g) => [g >> 8, g & 0xff]);
const PRIVATE = "a private or loopback address";

const IPV4_RANGES: Range[] = [
  { prefix: v4("169.254.0.0"), bits: 16, kind: "never", what: "link-local (cloud metadata)" },
  ...([["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]] as const).map(
    ([net, bits]): Range => ({ prefix: v4(net), bits, kind: "private", what: PRIVATE }),
  ),
];

const IPV6_RANGES: Range[] = [
  { prefix: v6([0xfe80]), bits: 10, kind: "never", what: "link-local" },
  { prefix: v6([0x64, 0xff9b, 1]), bits: 48, kind: "never", what: "local-use NAT64 (64:ff9b:1::/48, never public)" },
  { prefix: v6([0, 0, 0, 0, 0, 0, 0, 0]), bits: 128, kind: "private", what: `the unspecified address, ${PRIVATE}` },
  { prefix: v6([0, 0, 0, 0, 0, 0, 0, 1]), bits: 128, kind: "private", what: PRIVATE },
  { prefix: v6([0xfec0]), bits: 10, kind: "private", what: `site-local (fec0::/10), ${PRIVATE}` },
  { prefix: v6([0xfc00]), bits: 7, kind: "private", what: `unique local (fc00::/7), ${PRIVATE}` },
  { prefix: v6([0xff00]), bits: 8, kind: "private", what: `multicast, ${PRIVATE}` },
];

/** IPv6 prefixes that carry an IPv4 address: traffic to them reaches that address, so it is judged as one. */
const EMBEDDING: { prefix: number[]; bits: number; name: string; ipv4: (b: Uint8Array) => Uint8Array[] }[] = [
  { prefix: v6([0, 0, 0, 0, 0, 0xffff]), bits: 96, name: "IPv4-mapped", ipv4: (b) => [b.slice(12)] },
  { prefix: v6([0, 0, 0, 0, 0xffff, 0]), bits: 96, name: "IPv4-translated", ipv4: (b) => [b.slice(12)] },
  { prefix: v6([0, 0, 0, 0, 0, 0]), bits: 96, name: "IPv4-compatible", ipv4: (b) => [b.slice(12)] },
  { prefix: v6([0x64, 0xff9b, 0, 0, 0, 0]), bits: 96, name: "NAT64", ipv4: (b) => [b.slice(12)] },
  { prefix: v6([0x2002]), bits: 16, name: "6to4", ipv4: (b) => [b.slice(2, 6)] },
  // Teredo: the server's address, and the client's stored with every bit flipped.
  { prefix: v6([0x2001, 0]), bits: 32, name: "Teredo", ipv4: (b) => [b.slice(4, 8), b.slice(12).map((x) => x ^ 0xff)] },
];

const within = (bytes: Uint8Array, prefix: number[], bits: number) => {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, bits - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
};

/** The range that refuses these bytes (one that always refuses first), if any. */
const refusingRange = (bytes: Uint8Array, ranges: Range[], allowPrivate: boolean) => {
  const hits = ranges.filter((r) => within(bytes, r.prefix, r.bits) && (r.kind === "never" || !allowPrivate));
  return hits.find((r) => r.kind === "never") ?? hits[0];
};

const because = ({ kind }: Range) => (kind === "never" ? "; webhooks never go there" : " (set WEBHOOK_ALLOW_PRIVATE=1 to allow)");

/** Why an address is refused, or undefined when it may be used. */
export const refusedAddress = (address: string, allowPrivate: boolean): string | undefined => {
  const ip = parseIp(address);
  if (!ip) return `${address} is not an IP address`;
  const own = refusingRange(ip.bytes, ip.family === 4 ? IPV4_RANGES : IPV6_RANGES, allowPrivate);
  if (own) return `${address} is ${own.what}${because(own)}`;
  if (ip.family === 4) return undefined;
  for (const embedding of EMBEDDING.filter((e) => within(ip.bytes, e.prefix, e.bits))) {
    for (const inner of embedding.ipv4(ip.bytes)) {
      const range = refusingRange(inner, IPV4_RANGES, allowPrivate);
      if (range) return `${address} is ${embedding.name} for ${inner.join(".")}, ${range.what}${because(range)}`;
    }
  }
  return undefined;
};

/** The address to connect to for a host: every resolved address must pass, the first is used. */
export const resolveTarget = async (host: string, allowPrivate: boolean): Promise<{ address: string; family: number } | { refused: string }> => {
  const bare = host.replace(/^\[|\]$/g, "");
  const literal = parseIp(bare);
  const found = literal ? [{ address: bare, family: literal.family }] : await lookup(bare, { all: true });
  if (found.length === 0) return { refused: `${host} has no address` };
  for (const { address } of found) {
    const refused = refusedAddress(address, allowPrivate);
    if (refused) return { refused };
  }
  return found[0];
};
