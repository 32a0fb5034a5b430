import { randomBytes } from "node:crypto";

/** TRUST_PROXY: how many proxies in front of this server to trust, or the proxies' own addresses. */
export type TrustProxy = { hops: number } | { addresses: Set<string> };

/** Unset, empty, `0` or `false`: no proxy is trusted and X-Forwarded-For is never read. */
export const parseTrustProxy = (text: string | undefined): TrustProxy | undefined => {
  const value = text?.trim() ?? "";
  if (value === "" || value === "0" || value === "false") return undefined;
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  if (value === "true") throw new Error('TRUST_PROXY must be a number of hops or a comma list of proxy addresses (not "true")');
  return { addresses: new Set(value.split(",").map((a) => plainAddress(a.trim())).filter(Boolean)) };
};

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) and `10.0.0.1` are the same client. */
const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");

/**
 * The client's address: the socket's peer, unless trusted proxies stand in front. With `hops: n`, the n-th
 * address from the right of X-Forwarded-For (the peer counts as the first proxy); with `addresses`, the
 * right-most address that is not one of the trusted proxies. A forged left part of the header is never read.
 */
export const clientAddressOf = (peer: string | undefined, forwardedFor: string | undefined, trust: TrustProxy | undefined) => {
  const socket = peer ? plainAddress(peer) : undefined;
  if (!trust || !forwardedFor) return socket;
  const chain = [...forwardedFor.split(",").map((a) => plainAddress(a.trim())).filter(Boolean), ...(socket ? [socket] : [])];
  if ("hops" in trust) return chain[Math.max(0, chain.length - 1 - trust.hops)];
  let i = chain.length - 1;
  while (i > 0 && trust.addresses.has(chain[i])) i--;
  return chain[i];
};

// server.ts hands Next the address it worked out in this header, marked with a token only this process knows,
// so a client cannot send the header itself (route handlers see no socket).
const holder = globalThis as typeof globalThis & { __tabulaClientMark?: string };
const processMark = () => (holder.__tabulaClientMark ??= randomBytes(18).toString("base64url"));
export const CLIENT_HEADER = "x-tabula-client";

export const markClientAddress = (address: string | undefined) => `${processMark()} ${address ?? ""}`;

/** The address server.ts marked, or undefined when the header is missing or not this process's. */
const readMarkedAddress = (header: string | null | undefined) => {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  if (space === -1 || header.slice(0, space) !== processMark()) return undefined;
  return header.slice(space + 1) || undefined;
};

/** A route handler's client address: the one server.ts marked, else X-Forwarded-For as TRUST_PROXY allows. */
export const clientAddressFromHeaders = (get: (name: string) => string | null | undefined, trust: TrustProxy | undefined) =>
  readMarkedAddress(get(CLIENT_HEADER)) ?? (trust ? clientAddressOf(undefined, get("x-forwarded-for") ?? undefined, trust) : undefined);
