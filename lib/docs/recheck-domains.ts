import type { App } from "../app-type";
import { docsConfig } from "../config";
import { checkDomain } from "./check-domain";
import { recordCheck } from "./docs-settings";

/** Checks every custom domain again, one after the other: a verified one no longer right becomes failing (and is no longer served). */
export const recheckDomains = async (app: App) => {
  const rows = await app.engine.meta.selectFrom("database_docs").selectAll().where("domain", "is not", null).where("token", "is not", null).execute();
  for (const row of rows) await recordCheck(app, row, await checkDomain(docsConfig(app.config), row.domain!, row.token!));
};

/** The periodic re-check (DOCS_RECHECK_SECONDS; 0 is off); unref'd so it never keeps a process alive. Returns the stop. */
export const startDomainRechecks = (app: App): (() => void) => {
  const every = docsConfig(app.config).recheckMs;
  if (!(every > 0)) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    recheckDomains(app)
      .catch((err) => console.error("[tabula] re-checking docs domains failed:", err))
      .finally(() => (running = false));
  }, every);
  timer.unref();
  return () => clearInterval(timer);
};
