// The Next world (next dev, and the pages behind server.ts): proxy.ts answers a verified docs host itself and
// lets every other host through to the app; the /docs route handler serves /docs/{instance}. Called in-process
// with real web Requests, as Next calls them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startDnsServer } from "./dns-server";
import { CNAME_TARGET, makeDatabase, setDocs, useDns, verify } from "./docs-fixture";

const request = (url: string, host: string) => new Request(url, { headers: { host } });

describe.each(ENGINES)("docs in the Next adapter on %s", (engine) => {
  let h: Harness;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let proxy: (r: Request) => Promise<Response>;
  let docsRoute: { GET: (r: Request) => Promise<Response> };
  let db: { instance: string; name: string };
  const DOMAIN = `web-${engine}.docs.test`;

  beforeAll(async () => {
    h = await startHarness(engine, "route");
    dns = await startDnsServer();
    useDns(h.app, [dns.address]);
    proxy = (await import("../../proxy")).proxy;
    docsRoute = (await import("../../app/docs/[[...path]]/route")) as unknown as typeof docsRoute;
    db = await makeDatabase(h, "Web Docs");
    const { txt } = await setDocs(h, db.instance, { public: true, domain: DOMAIN });
    dns.set(DOMAIN, { cname: CNAME_TARGET });
    dns.set(txt.name, { txt: [txt.value] });
    expect((await verify(h, db.instance)).body.domain_status).toBe("verified");
  });

  afterAll(async () => {
    await dns?.close();
    await h?.close();
  });

  it("answers a verified host's / with the docs, and its other paths with 404", async () => {
    const page = await proxy(request(`http://${DOMAIN}/`, `${DOMAIN}:3000`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<title>${db.name} API docs</title>`);
    const doc = await proxy(request(`http://${DOMAIN}/openapi.json`, DOMAIN));
    expect((await doc.json()).info.title).toBe(db.name);
    for (const path of ["/login", "/api/v1/databases", "/_next/static/chunks/x.js"]) expect((await proxy(request(`http://${DOMAIN}${path}`, DOMAIN))).status).toBe(404);
  });

  it("lets any other host through to the app (Next's continue), never to docs", async () => {
    for (const host of ["localhost:3000", `pending-${engine}.docs.test`, db.instance]) {
      const through = await proxy(request(`http://${host}/`, host));
      expect(through.headers.get("x-middleware-next")).toBe("1");
    }
  });

  it("serves /docs/{instance} and its document through the route handler while public, 404 once private", async () => {
    const page = await docsRoute.GET(request(`http://localhost:3000/docs/${db.instance}`, "localhost:3000"));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`"specUrl":"/docs/${db.instance}/openapi.json"`);
    await setDocs(h, db.instance, { public: false });
    expect((await docsRoute.GET(request(`http://localhost:3000/docs/${db.instance}/openapi.json`, "localhost:3000"))).status).toBe(404);
    expect((await proxy(request(`http://${DOMAIN}/`, DOMAIN))).headers.get("x-middleware-next")).toBe("1");
  });
});
