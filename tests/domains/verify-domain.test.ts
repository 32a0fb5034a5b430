// Verify and the re-check against a real DNS server on loopback: verified only when the CNAME points at the
// target and the TXT record holds the token; every other answer (CNAME elsewhere, no TXT, NXDOMAIN, no answer
// at all) leaves a clear reason and never verifies; a verified domain that stops pointing here becomes failing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recheckDomains } from "../../lib/docs/recheck-domains";
import { createApp } from "../../lib/app";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startDnsServer, startSilentDnsServer } from "./dns-server";
import { CNAME_TARGET, getDocs, makeDatabase, setDocs, useDns, verify } from "./docs-fixture";

describe.each(ENGINES)("verifying a custom docs domain on %s", (engine) => {
  let h: Harness;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    dns = await startDnsServer();
    useDns(h.app, [dns.address]);
  });

  afterAll(async () => {
    await dns?.close();
    await h?.close();
  });

  /** A public database with `domain` set (pending) and its TXT record as the API shows it. */
  const withDomain = async (domain: string) => {
    const { instance } = await makeDatabase(h, "Docs");
    const settings = await setDocs(h, instance, { public: true, domain });
    expect(settings).toMatchObject({ domain, domain_status: "pending", domain_error: null, cname_target: CNAME_TARGET });
    expect(settings.txt).toEqual({ name: `_tabula-verify.${domain}`, value: expect.stringMatching(/^tabula-verify=[0-9a-f]{32}$/) });
    return { instance, txt: settings.txt as { name: string; value: string } };
  };

  it("verifies when the CNAME points at the target (any case, trailing dot) and the TXT record holds the token", async () => {
    const { instance, txt } = await withDomain(`right-${engine}.example.test`);
    dns.set(`right-${engine}.example.test`, { cname: "Tabula.TEST." });
    dns.set(txt.name, { txt: ["v=spf1 -all", txt.value] });
    const reply = await verify(h, instance);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ domain_status: "verified", domain_error: null, checked_at: expect.any(String) });
    expect((await getDocs(h, instance)).body.domain_status).toBe("verified");
  });

  const cases: { name: string; records: (domain: string, txt: { name: string; value: string }) => void; status: string; error: (domain: string) => string }[] = [
    {
      name: "a CNAME pointing elsewhere",
      records: (domain, txt) => {
        dns.set(domain, { cname: "elsewhere.example.net" });
        dns.set(txt.name, { txt: [txt.value] });
      },
      status: "pending",
      error: () => `CNAME points to elsewhere.example.net, not ${CNAME_TARGET}`,
    },
    {
      name: "no TXT record",
      records: (domain) => dns.set(domain, { cname: CNAME_TARGET }),
      status: "pending",
      error: (domain) => `TXT token missing: _tabula-verify.${domain} has no TXT record`,
    },
    {
      name: "a TXT record with another token",
      records: (domain, txt) => {
        dns.set(domain, { cname: CNAME_TARGET });
        dns.set(txt.name, { txt: ["tabula-verify=someone-elses-token"] });
      },
      status: "pending",
      error: (domain) => `TXT token missing: no TXT record at _tabula-verify.${domain} says `,
    },
    {
      name: "a domain that does not exist (NXDOMAIN)",
      records: () => {},
      status: "pending",
      error: (domain) => `domain does not exist: ${domain} has no DNS records (NXDOMAIN)`,
    },
  ];

  it.each(cases)("never verifies with $name: pending with a clear reason", async ({ name, records, status, error }) => {
    const domain = `${name.replace(/\W+/g, "-").replace(/^-|-$/g, "")}-${engine}.example.test`.toLowerCase();
    const { instance, txt } = await withDomain(domain);
    records(domain, txt);
    const reply = await verify(h, instance);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.domain_status).toBe(status);
    expect(reply.body.domain_error).toContain(error(domain));
  });

  it("says the lookup timed out when the DNS server never answers, and does not verify", async () => {
    const { instance, txt } = await withDomain(`slow-${engine}.example.test`);
    dns.set(`slow-${engine}.example.test`, { cname: CNAME_TARGET });
    dns.set(txt.name, { txt: [txt.value] });
    const silent = await startSilentDnsServer();
    useDns(h.app, [silent.address], 300);
    try {
      const started = Date.now();
      const reply = await verify(h, instance);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.domain_status).toBe("pending");
      expect(reply.body.domain_error).toBe(
        `DNS lookup timed out (CNAME of slow-${engine}.example.test); DNS lookup timed out (TXT of _tabula-verify.slow-${engine}.example.test)`,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      useDns(h.app, [dns.address]);
      await silent.close();
    }
  });

  it("turns a verified domain that points elsewhere into failing on the re-check, and back to verified once fixed", async () => {
    const domain = `moved-${engine}.example.test`;
    const { instance, txt } = await withDomain(domain);
    dns.set(domain, { cname: CNAME_TARGET });
    dns.set(txt.name, { txt: [txt.value] });
    expect((await verify(h, instance)).body.domain_status).toBe("verified");
    expect((await h.request("GET", `/api/v1/domains/allowed?domain=${domain}`, { key: null })).status).toBe(200);

    dns.set(domain, { cname: "other-host.example.net" });
    await recheckDomains(h.app);
    expect((await getDocs(h, instance)).body).toMatchObject({ domain_status: "failing", domain_error: `CNAME points to other-host.example.net, not ${CNAME_TARGET}` });
    expect((await h.request("GET", `/api/v1/domains/allowed?domain=${domain}`, { key: null })).status).toBe(404);

    dns.set(domain, { cname: CNAME_TARGET });
    await recheckDomains(h.app);
    expect((await getDocs(h, instance)).body).toMatchObject({ domain_status: "verified", domain_error: null });
  });

  it("answers the settings unchanged when there is no domain to verify", async () => {
    const { instance } = await makeDatabase(h, "No domain");
    const reply = await verify(h, instance);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ domain: null, domain_status: "none", txt: null, checked_at: null });
  });
});

describe("the periodic re-check", () => {
  it("runs on the app's interval (DOCS_RECHECK_SECONDS) and stops with app.close()", async () => {
    const dns = await startDnsServer();
    const h = await startHarness("sqlite", "node");
    // A second app on the same data, configured as the environment would: re-check every 200 ms.
    let closed = false;
    const app = await createApp({ ...h.app.config, docs: { cnameTarget: CNAME_TARGET, apiUrl: "https://tabula.test", dnsServers: [dns.address], dnsTimeoutMs: 500, recheckMs: 200 } });
    try {
      useDns(h.app, [dns.address]);
      const domain = "interval.example.test";
      const { instance } = await makeDatabase(h, "Interval");
      const { txt } = await setDocs(h, instance, { public: true, domain });
      dns.set(domain, { cname: CNAME_TARGET });
      dns.set(txt.name, { txt: [txt.value] });
      expect((await verify(h, instance)).body.domain_status).toBe("verified");
      dns.set(domain, { cname: "gone.example.net" });
      await expect.poll(async () => (await getDocs(h, instance)).body.domain_status, { timeout: 3_000, interval: 100 }).toBe("failing");
      // Closed, the app checks no more: the domain is right again, yet stays failing (h.app's own re-check is off).
      await app.close();
      closed = true;
      dns.set(domain, { cname: CNAME_TARGET });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect((await getDocs(h, instance)).body.domain_status).toBe("failing");
    } finally {
      if (!closed) await app.close();
      await h.close();
      await dns.close();
    }
  });
});
