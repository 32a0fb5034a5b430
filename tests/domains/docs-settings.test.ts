// The docs settings routes: defaults, who may read and change them (pairs), the plan gate on custom domains
// (402 on free, allowed on team), pending claims that reserve nothing and the first verification owning a domain, domain validation (422 naming `domain`), and a
// new domain resetting the status with a new token. A refused write changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { addMember, newAccount, outcome, type Account } from "../teams/team-fixture";
import { startDnsServer } from "./dns-server";
import { CNAME_TARGET, getDocs, makeDatabase, putDocs, setDocs, useDns, verify } from "./docs-fixture";

const PRIVATE = { public: false, url: null, domain: null, domain_status: "none", domain_error: null, checked_at: null, cname_target: CNAME_TARGET, txt: null };

describe.each(ENGINES)("docs settings on %s", (engine) => {
  let h: Harness;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let owner: Account;
  let db: { instance: string };
  const members = {} as Record<"viewer" | "editor" | "admin", Account>;
  let stranger: Account;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    dns = await startDnsServer();
    useDns(h.app, [dns.address]);
    owner = await newAccount(h, "team");
    for (const role of ["viewer", "editor", "admin"] as const) members[role] = await addMember(h, owner, role);
    stranger = await newAccount(h, "team");
    db = await makeDatabase(h, "Owned", owner.key);
  }, 60_000);

  afterAll(async () => {
    await dns?.close();
    await h?.close();
  });

  it("starts private, without a domain", async () => {
    // A database of its own: the shared one's settings are what the other tests left.
    const fresh = await makeDatabase(h, "Fresh", owner.key);
    const reply = await getDocs(h, fresh.instance, owner.key);
    expect(outcome(reply)).toEqual({ status: 200, body: PRIVATE });
  });

  it("lets every role read the settings, and refuses another account's key with the same 404 as an unknown database", async () => {
    for (const role of ["viewer", "editor", "admin"] as const) expect((await getDocs(h, db.instance, members[role].key)).status).toBe(200);
    expect(outcome(await getDocs(h, db.instance, stranger.key))).toEqual({ status: 404, body: { error: "not_found", message: `Database "${db.instance}" was not found.` } });
  });

  describe("changing them (database:admin)", () => {
    it.each([
      ["the owner", () => owner],
      ["an admin member", () => members.admin],
    ])("allows %s", async (_label, who) => {
      const reply = await putDocs(h, db.instance, { public: true }, who().key);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ public: true, url: expect.stringMatching(new RegExp(`/docs/${db.instance}$`)) });
      expect((await verify(h, db.instance, who().key)).status).toBe(200);
    });

    it.each([
      ["a viewer", () => members.viewer, 403, { error: "forbidden", message: "Your role on this database does not include database:admin." }],
      ["an editor", () => members.editor, 403, { error: "forbidden", message: "Your role on this database does not include database:admin." }],
    ])("refuses %s, and nothing changes", async (_label, who, status, body) => {
      const before = (await getDocs(h, db.instance, owner.key)).body;
      expect(outcome(await putDocs(h, db.instance, { public: !before.public, domain: "refused.example.test" }, who().key))).toEqual({ status, body });
      expect(outcome(await verify(h, db.instance, who().key))).toEqual({ status, body });
      expect((await getDocs(h, db.instance, owner.key)).body).toEqual(before);
    });

    it("refuses another account's key with a 404, and nothing changes", async () => {
      const before = (await getDocs(h, db.instance, owner.key)).body;
      const notFound = { status: 404, body: { error: "not_found", message: `Database "${db.instance}" was not found.` } };
      expect(outcome(await putDocs(h, db.instance, { public: false }, stranger.key))).toEqual(notFound);
      expect(outcome(await verify(h, db.instance, stranger.key))).toEqual(notFound);
      expect((await getDocs(h, db.instance, owner.key)).body).toEqual(before);
    });
  });

  describe("the plan gate on custom domains", () => {
    it("answers 402 on the free plan (quota kind custom_domain) and changes nothing; public docs alone are fine", async () => {
      const free = await newAccount(h);
      const mine = await makeDatabase(h, "Free", free.key);
      expect(outcome(await putDocs(h, mine.instance, { public: true, domain: "free.example.test" }, free.key))).toEqual({
        status: 402,
        body: {
          error: "quota_exceeded",
          message: "Your free plan does not include custom domains for the API docs. Ask the operator of this install for a plan with custom domains.",
          quota: { kind: "custom_domain", limit: 0, used: 0, credits: 0 },
        },
      });
      expect((await getDocs(h, mine.instance, free.key)).body).toEqual(PRIVATE);
      expect((await putDocs(h, mine.instance, { public: true }, free.key)).body).toMatchObject({ public: true, domain: null });
      expect((await putDocs(h, mine.instance, { public: true, domain: null }, free.key)).status).toBe(200);
    });

    it("allows a domain on the team plan", async () => {
      const mine = await makeDatabase(h, "Team", owner.key);
      const reply = await putDocs(h, mine.instance, { public: true, domain: `team-${engine}.example.test` }, owner.key);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ domain: `team-${engine}.example.test`, domain_status: "pending" });
    });
  });

  it("a pending claim reserves nothing: a second database may claim the same domain (200), the first keeps its claim", async () => {
    const first = await makeDatabase(h, "First", owner.key);
    const second = await makeDatabase(h, "Second", stranger.key);
    const domain = `shared-${engine}.example.test`;
    const a = await setDocs(h, first.instance, { public: true, domain }, owner.key);
    const b = await putDocs(h, second.instance, { public: true, domain: domain.toUpperCase() }, stranger.key);
    expect(b.status, b.text).toBe(200);
    expect(b.body).toMatchObject({ domain, domain_status: "pending" });
    expect(b.body.txt.value).not.toBe(a.txt.value);
    expect((await getDocs(h, first.instance, owner.key)).body).toMatchObject({ domain, domain_status: "pending", txt: a.txt });
  });

  it("the first database to verify owns the domain: the other claim fails verification with the reason, a new claim is 409", async () => {
    const squatter = await makeDatabase(h, "Squatter", stranger.key);
    const real = await makeDatabase(h, "Real", owner.key);
    const domain = `owned-${engine}.example.test`;
    const early = await setDocs(h, squatter.instance, { public: true, domain }, stranger.key);
    const late = await setDocs(h, real.instance, { public: true, domain }, owner.key);
    // Both tokens are published, so only who verifies first decides.
    dns.set(domain, { cname: CNAME_TARGET });
    dns.set(late.txt.name, { txt: [late.txt.value, early.txt.value] });
    expect((await verify(h, real.instance, owner.key)).body).toMatchObject({ domain, domain_status: "verified", domain_error: null });
    const refused = await verify(h, squatter.instance, stranger.key);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body).toMatchObject({
      domain,
      domain_status: "pending",
      domain_error: `${domain} is already verified by another database of this install (the first to verify owns it); remove it there, then verify again`,
    });
    const third = await makeDatabase(h, "Third", owner.key);
    expect(outcome(await putDocs(h, third.instance, { public: true, domain }, owner.key))).toEqual({
      status: 409,
      body: {
        error: "conflict",
        message: `The domain ${domain} is verified by another database and serves its docs; remove it there first.`,
        errors: [{ field: "domain", code: "domain_taken", message: `${domain} belongs to another database` }],
      },
    });
    expect((await getDocs(h, third.instance, owner.key)).body).toEqual(PRIVATE);
    // Removing the domain from its owner frees it: the other claim now verifies.
    await setDocs(h, real.instance, { public: true, domain: null }, owner.key);
    expect((await verify(h, squatter.instance, stranger.key)).body).toMatchObject({ domain_status: "verified", domain_error: null });
  });

  it("two databases verifying one domain at once: exactly one owns it", async () => {
    const one = await makeDatabase(h, "Race one", owner.key);
    const two = await makeDatabase(h, "Race two", stranger.key);
    const domain = `race-${engine}.example.test`;
    const a = await setDocs(h, one.instance, { public: true, domain }, owner.key);
    const b = await setDocs(h, two.instance, { public: true, domain }, stranger.key);
    dns.set(domain, { cname: CNAME_TARGET });
    dns.set(a.txt.name, { txt: [a.txt.value, b.txt.value] });
    const replies = await Promise.all([verify(h, one.instance, owner.key), verify(h, two.instance, stranger.key)]);
    expect(replies.map((r) => r.body.domain_status).sort()).toEqual(["pending", "verified"]);
  });

  it.each([
    ["https://docs.example.test", "domain is a hostname such as docs.example.com, without http:// or https://"],
    ["docs.example.test:8443", "domain is a hostname only, without a port, a path or a query (e.g. docs.example.com)"],
    ["docs.example.test/api", "domain is a hostname only, without a port, a path or a query (e.g. docs.example.com)"],
    ["docs.example.test.", "domain must not end with a dot"],
    ["localhost", "domain must be a hostname such as docs.example.com: labels of letters, digits and hyphens, separated by dots"],
    ["-docs.example.test", "domain must be a hostname such as docs.example.com: labels of letters, digits and hyphens, separated by dots"],
    ["docs_x.example.test", "domain must be a hostname such as docs.example.com: labels of letters, digits and hyphens, separated by dots"],
    ["10.0.0.1", "domain must be a hostname, not an IP address"],
    [CNAME_TARGET, `domain cannot be ${CNAME_TARGET} itself: that is where it must point`],
  ])("refuses the domain %j with a 422 naming domain", async (domain, message) => {
    const before = (await getDocs(h, db.instance, owner.key)).body;
    expect(outcome(await putDocs(h, db.instance, { public: true, domain }, owner.key))).toEqual({
      status: 422,
      body: { error: "validation_failed", message, errors: [{ field: "domain", code: "invalid_domain", message }] },
    });
    expect((await getDocs(h, db.instance, owner.key)).body).toEqual(before);
  });

  it("stores the domain lowercase; a new domain is pending with a new token, the same one keeps its state, null removes it", async () => {
    const mine = await makeDatabase(h, "Switch", owner.key);
    const first = `One-${engine}.Example.test`;
    const set = await setDocs(h, mine.instance, { public: true, domain: first }, owner.key);
    expect(set.domain).toBe(first.toLowerCase());
    dns.set(set.domain, { cname: CNAME_TARGET });
    dns.set(set.txt.name, { txt: [set.txt.value] });
    expect((await verify(h, mine.instance, owner.key)).body.domain_status).toBe("verified");
    // The same domain again (and a PUT without domain) keeps it verified with its token.
    expect(await setDocs(h, mine.instance, { public: true, domain: set.domain }, owner.key)).toMatchObject({ domain_status: "verified", txt: set.txt });
    expect(await setDocs(h, mine.instance, { public: false }, owner.key)).toMatchObject({ public: false, url: null, domain: set.domain, domain_status: "verified", txt: set.txt });
    const moved = await setDocs(h, mine.instance, { public: true, domain: `two-${engine}.example.test` }, owner.key);
    expect(moved).toMatchObject({ domain_status: "pending", domain_error: null, checked_at: null });
    expect(moved.txt.name).toBe(`_tabula-verify.two-${engine}.example.test`);
    expect(moved.txt.value).not.toBe(set.txt.value);
    expect(await setDocs(h, mine.instance, { public: true, domain: null }, owner.key)).toMatchObject({ domain: null, domain_status: "none", txt: null });
  });

  it("refuses a body that is not the settings shape with a 422 naming the field", async () => {
    const reply = await putDocs(h, db.instance, { domain: "x.example.test" }, owner.key);
    expect(reply.status).toBe(422);
    expect(reply.body.errors[0].field).toBe("public");
  });
});
