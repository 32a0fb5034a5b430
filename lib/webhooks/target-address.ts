// Outbound safety: where a webhook may connect. Link-local (cloud metadata at 169.254.169.254, fe80::/10) is
// always refused; private and loopback ranges unless WEBHOOK_ALLOW_PRIVATE=1. The address is checked after
// DNS resolution and the socket connects to that same address (no second lookup to rebind).
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";

const linkLocal = new BlockList();
linkLocal.addSubnet("169.254.0.0", 16, "ipv4");
linkLocal.addSubnet("fe80::", 10, "ipv6");

const privateRanges = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 3]] as const) {
  privateRanges.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [["::", 128], ["::1", 128], ["fc00::", 7], ["ff00::", 8]] as const) privateRanges.addSubnet(net, bits, "ipv6");

/** Why an address is refused, or undefined when it may be used. */
export const refusedAddress = (address: string, allowPrivate: boolean): string | undefined => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (linkLocal.check(ip, family)) return `${address} is link-local (cloud metadata); webhooks never go there`;
  if (!allowPrivate && privateRanges.check(ip, family)) return `${address} is a private or loopback address (set WEBHOOK_ALLOW_PRIVATE=1 to allow)`;
  return undefined;
};

/** The address to connect to for a host: every resolved address must pass, the first is used. */
export const resolveTarget = async (host: string, allowPrivate: boolean): Promise<{ address: string; family: number } | { refused: string }> => {
  const bare = host.replace(/^\[|\]$/g, "");
  const found = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  if (found.length === 0) return { refused: `${host} has no address` };
  for (const { address } of found) {
    const refused = refusedAddress(address, allowPrivate);
    if (refused) return { refused };
  }
  return found[0];
};
