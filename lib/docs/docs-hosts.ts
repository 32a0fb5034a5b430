import type { App } from "../app-type";

/** `Docs.Example.com:443` → `docs.example.com` (the port never matters; IPv6 literals are never docs hosts). */
const nameOf = (host: string | undefined) => (host ?? "").split(":")[0].toLowerCase().replace(/\.$/, "");

// Clients send the same Host on every request: the last one's name is kept.
let lastHost: string | undefined;
let lastName = "";
const hostName = (host: string | undefined) => (host === lastHost ? lastName : ((lastHost = host), (lastName = nameOf(host))));

const loadDomains = async (app: App) => {
  const rows = await app.engine.meta
    .selectFrom("database_docs")
    .innerJoin("databases", "databases.id", "database_docs.database_id")
    .select(["database_docs.domain", "databases.instance"])
    .where("database_docs.public", "=", 1)
    .where("database_docs.domain_status", "=", "verified")
    .execute();
  return new Map(rows.map((r) => [r.domain!, r.instance]));
};

/**
 * The instance whose public docs a Host serves, or undefined (the normal app). Only verified domains of public
 * docs are in the map; it is loaded whole once and dropped on `docs`/`database` events and when another process
 * changed the metadata, so a request costs one Map lookup.
 */
export const docsInstanceForHost = async (app: App, host: string | undefined): Promise<string | undefined> => {
  const name = hostName(host);
  if (!name) return undefined;
  return (await domainsOf(app)).get(name);
};

const domainsOf = (app: App) => {
  const hosts = app.docsHosts;
  if (hosts.domains) return hosts.domains;
  hosts.loaded = undefined;
  const loading: Promise<Map<string, string>> = loadDomains(app).then(
    (domains) => {
      if (hosts.domains === loading) hosts.loaded = domains;
      return domains;
    },
    (err) => {
      if (hosts.domains === loading) hosts.domains = undefined;
      throw err;
    },
  );
  return (hosts.domains = loading);
};

/**
 * docsInstanceForHost without a promise once the map is loaded (every request after the first): the instance,
 * or undefined for the normal app. A Promise while it loads.
 */
export const docsInstanceForHostNow = (app: App, host: string | undefined): string | undefined | Promise<string | undefined> => {
  const name = hostName(host);
  if (!name) return undefined;
  const loaded = app.docsHosts.domains && app.docsHosts.loaded;
  return loaded ? loaded.get(name) : docsInstanceForHost(app, host);
};
