import type { App } from "../app-type";

/** `Docs.Example.com:443` → `docs.example.com` (the port never matters; IPv6 literals are never docs hosts). */
const hostName = (host: string | undefined) => (host ?? "").split(":")[0].toLowerCase().replace(/\.$/, "");

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
  const loading = (app.docsHosts.domains ??= loadDomains(app).catch((err) => {
    app.docsHosts.domains = undefined;
    throw err;
  }));
  return (await loading).get(name);
};
