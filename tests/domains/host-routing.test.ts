// Host routing over real HTTP through the production node handler: a verified domain of public docs serves
// that database's docs at / (and their document and assets) and nothing else of the app; an unverified or
// unknown Host gets the normal app; one database's domain never serves another's docs; no page or document
// holds a secret key.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startDnsServer } from "./dns-server";
import { API_URL, CNAME_TARGET, makeDatabase, setDocs, startHostServer, useDns, verify } from "./docs-fixture";

describe.each(ENGINES)("docs by Host on %s", (engine) => {
  let h: Harness;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let web: Awaited<ReturnType<typeof startHostServer>>;
  let a: { instance: string; name: string };
  let b: { instance: string; name: string };
  let pending: { instance: string; name: string };
  const A = `a-${engine}.docs.test`;
  const B = `b-${engine}.docs.test`;
  const PENDING = `pending-${engine}.docs.test`;
  const secrets: string[] = [];

  /** Public docs on `domain`, verified through the loopback DNS server (unless `records` is false). */
  const publish = async (db: { instance: string }, domain: string, records = true) => {
    const { txt } = await setDocs(h, db.instance, { public: true, domain });
    if (!records) return;
    dns.set(domain, { cname: CNAME_TARGET });
    dns.set(txt.name, { txt: [txt.value] });
    expect((await verify(h, db.instance)).body.domain_status).toBe("verified");
  };

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    dns = await startDnsServer();
    useDns(h.app, [dns.address]);
    web = await startHostServer(h.app);
    a = await makeDatabase(h, "Alpha Shop");
    b = await makeDatabase(h, "Beta Blog");
    pending = await makeDatabase(h, "Gamma Pending");
    await publish(a, A);
    await publish(b, B);
    await publish(pending, PENDING, false);
    // Keys that exist on this install: an account key and one limited to database a.
    const dbKey = await h.request("POST", "/api/v1/keys", { body: { name: "a only", database: a.instance } });
    expect(dbKey.status, dbKey.text).toBe(201);
    secrets.push(h.accountKey, dbKey.body.key);
  });

  afterAll(async () => {
    await web?.close();
    await dns?.close();
    await h?.close();
  });

  it("serves the verified domain's docs page at /, branded with its database's name", async () => {
    const page = await web.get(A, "/");
    expect(page.status).toBe(200);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.text).toContain(`<title>${a.name} API docs</title>`);
    expect(page.text).toContain(`"specUrl":"/openapi.json"`);
    expect(page.text).toContain(`src="/docs/_assets/swagger-ui-bundle.js"`);
  });

  it("serves the live document on the domain, with the API on the app's own address", async () => {
    const doc = await web.get(`${A}:8443`, "/openapi.json");
    expect(doc.status).toBe(200);
    const spec = JSON.parse(doc.text);
    expect(spec.info.title).toBe(a.name);
    expect(spec.servers[0].url).toBe(`${API_URL}/v1/${a.instance}`);
    expect(Object.keys(spec.paths)).toContain("/products");
    // Always current: a table added now is in the next document.
    const added = await h.request("POST", `/api/v1/databases/${a.instance}/tables`, { body: { name: "orders", columns: [{ name: "total", type: "int" }] } });
    expect(added.status, added.text).toBe(201);
    expect(Object.keys(JSON.parse((await web.get(A, "/openapi.json")).text).paths)).toContain("/orders");
  });

  it("serves Swagger UI's assets on the domain", async () => {
    const css = await web.get(A, "/docs/_assets/swagger-ui.css");
    expect([css.status, css.type]).toEqual([200, "text/css; charset=utf-8"]);
    const js = await web.get(A, "/docs/_assets/swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.text).toContain("SwaggerUIBundle");
    const theme = await web.get(A, "/docs/_assets/tabula-theme.css");
    expect([theme.status, theme.type]).toEqual([200, "text/css; charset=utf-8"]);
    expect(theme.text).toContain(".tabula-swagger .swagger-ui .btn.authorize");
  });

  it("serves the dashboard's own Swagger plugins, the very files on disk, to the page's module script", async () => {
    const page = await web.get(A, "/");
    expect(page.text).toContain(`<script type="module" src="/docs/_assets/docs-page.js"></script>`);
    const script = await web.get(A, "/docs/_assets/docs-page.js");
    expect(script.text).toContain(`import { foldColumnFilters } from "./fold-column-filters.js";`);
    expect(script.text).toContain("plugins: [foldColumnFilters]");
    expect(script.text).toContain(`import { openApiForSwagger } from "./openapi-for-swagger.js";`);
    for (const file of ["fold-column-filters.js", "name-swagger-selects.js", "openapi-for-swagger.js"]) {
      const served = await web.get(A, `/docs/_assets/${file}`);
      expect([served.status, served.type]).toEqual([200, "text/javascript; charset=utf-8"]);
      expect(served.text).toBe(fs.readFileSync(path.join("components/docs", file), "utf8"));
    }
  });

  it.each(["/api/v1/databases", `/v1/${"x"}/products`, "/login", "/databases", "/docs/_assets/nope.js", "/api/v1/domains/allowed?domain=x"])(
    "answers 404 for %s on a docs domain, even with a key: nothing else of the app is there",
    async (path) => {
      const reply = await web.get(A, path.replace("/v1/x/", `/v1/${a.instance}/`), { "x-api-key": h.accountKey });
      expect(reply.status).toBe(404);
      expect(reply.text).not.toBe("next");
    },
  );

  it("never serves another database's docs: each domain shows its own", async () => {
    const onB = await web.get(B, "/");
    expect(onB.text).toContain(`<title>${b.name} API docs</title>`);
    expect(onB.text).not.toContain(a.name);
    expect(JSON.parse((await web.get(B, "/openapi.json")).text).info.title).toBe(b.name);
  });

  it.each([
    ["an unverified (pending) domain", () => PENDING],
    ["an unknown domain", () => `nobody-${engine}.docs.test`],
    ["a spoofed Host naming a database's instance", () => `${a.instance}.docs.test`],
  ])("gives %s the normal app, never docs", async (_label, host) => {
    const root = await web.get(host(), "/");
    expect(root.text).toBe("next");
    const api = await web.get(host(), "/api/v1/databases", { "x-api-key": h.accountKey });
    expect(api.status).toBe(200);
    expect((await web.get(host(), "/openapi.json")).text).toBe("next");
  });

  it("stops serving a verified domain when its docs are made private", async () => {
    const c = await makeDatabase(h, "Delta Private");
    const C = `c-${engine}.docs.test`;
    await publish(c, C);
    expect((await web.get(C, "/")).status).toBe(200);
    await setDocs(h, c.instance, { public: false });
    expect((await web.get(C, "/")).text).toBe("next");
    expect((await h.request("GET", `/api/v1/domains/allowed?domain=${C}`, { key: null })).status).toBe(404);
  });

  it("serves /docs/{instance} on the app's own host only while the docs are public", async () => {
    const page = await web.get("127.0.0.1", `/docs/${a.instance}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`"specUrl":"/docs/${a.instance}/openapi.json"`);
    const doc = JSON.parse((await web.get("127.0.0.1", `/docs/${a.instance}/openapi.json`)).text);
    expect(doc.servers[0].url).toBe(`http://127.0.0.1/v1/${a.instance}`);
    const priv = await makeDatabase(h, "Epsilon");
    const closed = await web.get("127.0.0.1", `/docs/${priv.instance}`);
    expect([closed.status, closed.type]).toEqual([404, "text/html; charset=utf-8"]);
    const closedDoc = await web.get("127.0.0.1", `/docs/${priv.instance}/openapi.json`);
    expect({ status: closedDoc.status, body: JSON.parse(closedDoc.text) }).toEqual({
      status: 404,
      body: { error: "not_found", message: `Database "${priv.instance}" has no public API docs.` },
    });
  });

  it("holds no secret key in the docs page or the document, on either address", async () => {
    const bodies = [
      (await web.get(A, "/")).text,
      (await web.get(A, "/openapi.json")).text,
      (await web.get("127.0.0.1", `/docs/${a.instance}`)).text,
      (await web.get("127.0.0.1", `/docs/${a.instance}/openapi.json`)).text,
      (await web.get(A, "/docs/_assets/docs-page.js")).text,
    ];
    expect(secrets.length).toBe(2);
    for (const body of bodies) {
      for (const secret of secrets) expect(body).not.toContain(secret);
      expect(body).not.toMatch(/sk_[A-Za-z0-9]{8,}/);
    }
  });

  it("answers the TLS proxy's ask: 200 for a verified domain, 404 for any other, without credentials", async () => {
    const ask = (domain: string) => h.request("GET", `/api/v1/domains/allowed?domain=${encodeURIComponent(domain)}`, { key: null });
    expect(await ask(A).then((r) => [r.status, r.body])).toEqual([200, { domain: A, allowed: true }]);
    expect((await ask(PENDING)).status).toBe(404);
    expect((await ask(`nobody-${engine}.docs.test`)).body).toEqual({ error: "not_found", message: `nobody-${engine}.docs.test is not a verified docs domain of this install.` });
    expect((await ask("")).status).toBe(404);
  });
});
