// The DNS proof of a custom docs domain: its CNAME points at this install and a TXT record under it holds the
// token. Real lookups through node:dns (DNS_SERVERS overrides the system's resolvers, e.g. a test's server).
import { Resolver } from "node:dns/promises";
import type { DocsConfig } from "../config";

/** Where the owner puts the token, and what the TXT record must say. */
export const txtRecord = (domain: string, token: string) => ({ name: `_tabula-verify.${domain}`, value: `tabula-verify=${token}` });

export type DomainCheck = { ok: true } | { ok: false; reason: string };

const normalize = (host: string) => host.toLowerCase().replace(/\.$/, "");

const code = (err: unknown) => (err as { code?: string }).code ?? "";

const lookupFailure = (err: unknown, what: string): string => {
  switch (code(err)) {
    case "ETIMEOUT":
      return `DNS lookup timed out (${what})`;
    case "ECONNREFUSED":
      return `the DNS server refused the lookup (${what})`;
    case "ESERVFAIL":
      return `the DNS server failed to answer (${what})`;
    default:
      return `DNS lookup failed (${what}): ${code(err) || (err as Error).message}`;
  }
};

const resolverFor = (config: DocsConfig) => {
  const resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 1 });
  if (config.dnsServers?.length) resolver.setServers(config.dnsServers);
  return resolver;
};

const checkCname = async (resolver: Resolver, domain: string, target: string): Promise<string | undefined> => {
  try {
    const names = (await resolver.resolveCname(domain)).map(normalize);
    if (names.includes(target)) return undefined;
    return `CNAME points to ${names.join(", ")}, not ${target}`;
  } catch (err) {
    if (code(err) === "ENOTFOUND") return `domain does not exist: ${domain} has no DNS records (NXDOMAIN)`;
    if (code(err) === "ENODATA") return `${domain} has no CNAME record; add one pointing to ${target}`;
    return lookupFailure(err, `CNAME of ${domain}`);
  }
};

const checkTxt = async (resolver: Resolver, domain: string, token: string): Promise<string | undefined> => {
  const { name, value } = txtRecord(domain, token);
  try {
    const records = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
    return records.includes(value) ? undefined : `TXT token missing: no TXT record at ${name} says ${value}`;
  } catch (err) {
    if (code(err) === "ENOTFOUND" || code(err) === "ENODATA") return `TXT token missing: ${name} has no TXT record`;
    return lookupFailure(err, `TXT of ${name}`);
  }
};

/** Both lookups, in parallel; every problem found is named. */
export const checkDomain = async (config: DocsConfig, domain: string, token: string): Promise<DomainCheck> => {
  const resolver = resolverFor(config);
  const problems = (await Promise.all([checkCname(resolver, domain, config.cnameTarget), checkTxt(resolver, domain, token)])).filter(
    (p): p is string => p !== undefined,
  );
  // One missing name answers NXDOMAIN to both lookups: say it once.
  if (problems[0]?.startsWith("domain does not exist")) return { ok: false, reason: problems[0] };
  return problems.length ? { ok: false, reason: problems.join("; ") } : { ok: true };
};
