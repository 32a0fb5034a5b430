// Record history on the data API (docs/history.md): GET /{table}/{id}/_history, POST /{table}/{id}/_restore and
// GET /{table}/_deleted. Keys read every revision, of deleted rows too; a JWT user reads the history of a row
// its select policy shows now (else 404), each revision's record only where that policy allows it.
import { ApiError, invalidField, methodNotAllowed, notFound } from "../../errors";
import { type CoreRequest, type CoreResponse, json } from "../../http/core-types";
import { parsedPolicy } from "../../rls/row-filter";
import { predicatesFor } from "../../rls/access";
import { AUTO_COLUMNS } from "../../schema/types";
import { policyMatcher } from "../../events/feed/policy-match";
import type { DataRequest } from "../data-request";
import { findRecord } from "../read-records";
import { readDeleted, readRevisions, type StoredRevision } from "./read-revisions";
import { restoreRevision } from "./restore-revision";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

type Record_ = Record<string, unknown>;

/** `_limit` (1–100, default 50) and `_after` (a rev: older revisions than it); any other parameter is a 422. */
const pageOf = (query: URLSearchParams) => {
  let limit = DEFAULT_LIMIT;
  let after: number | undefined;
  for (const [key, value] of query) {
    if (key === "_limit") {
      limit = /^\d{1,3}$/.test(value) ? Number(value) : 0;
      if (limit < 1 || limit > MAX_LIMIT) throw invalidField("_limit", "out_of_range", `_limit must be a whole number from 1 to ${MAX_LIMIT}`);
    } else if (key === "_after") {
      if (!/^[1-9]\d{0,15}$/.test(value)) throw invalidField("_after", "invalid", "_after must be a rev from the previous page");
      after = Number(value);
    } else throw invalidField(key, "unknown_parameter", `"${key}" is not a parameter of history; use _limit and _after`);
  }
  return { limit, after };
};

const AUTOMATIC = AUTO_COLUMNS.map((c) => c.name);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The columns a revision changed: a create's every column, an update's those that differ from the row before, a delete none. */
const changedOf = (r: StoredRevision, old: Record_ | undefined): string[] => {
  const user = Object.keys(r.record).filter((c) => !AUTOMATIC.includes(c));
  if (r.action === "delete") return [];
  if (r.action === "insert" || !old) return user;
  return user.filter((c) => !same(r.record[c], old[c]));
};

const view = (r: StoredRevision, record: Record_ | null, old: Record_ | undefined) => ({
  rev: r.rev,
  action: r.action,
  record,
  changed: record ? changedOf(r, old) : [],
  at: r.at,
  actor: r.actor,
});

/** History is a table's choice: a table without it answers 404 on every history path. */
const requireHistory = (r: DataRequest) => {
  if (r.index.table.history === false) throw notFound(`Table "${r.index.table.name}" keeps no record history.`);
};

/** What a JWT user may see of a revision's rows: the select policy judged on each (as the feed does). */
const userFilter = (r: DataRequest) => {
  if (r.caller.kind !== "user") return undefined;
  const node = parsedPolicy(r.index.table, "select");
  if (!node) throw new ApiError("forbidden", `No select policy on table "${r.index.table.name}" allows this for your token.`);
  return policyMatcher(node, r.index.table, { ...r.caller.claims, id: r.caller.userId });
};

const history = async (r: DataRequest, req: CoreRequest): Promise<CoreResponse> => {
  const { limit, after } = pageOf(req.query);
  const id = r.id!;
  const shows = userFilter(r);
  // A JWT user reads the history of a row its select policy shows now; a key, of any row that has one.
  const current = await findRecord(r.udb, r.index, id, predicatesFor(r.access, r.index.table.name, "select"));
  if (shows && !current) throw notFound(`No record with id ${id} in ${r.index.table.name}.`);
  const revisions = await readRevisions(r.udb, r.index.table.id, id, limit, after);
  if (!current && revisions.length === 0 && after === undefined) throw notFound(`No record with id ${id} in ${r.index.table.name}.`);
  return json(200, revisions.map((rev) => {
    if (!shows) return view(rev, rev.record, rev.old);
    // A private row made public shows to others without its private past: no diff against a hidden row.
    return view(rev, shows(rev.record) ? rev.record : null, rev.old && shows(rev.old) ? rev.old : undefined);
  }));
};

const deleted = async (r: DataRequest, req: CoreRequest): Promise<CoreResponse> => {
  if (r.caller.kind === "user") throw new ApiError("forbidden", "Deleted records are listed for secret keys only.");
  const { limit, after } = pageOf(req.query);
  const revisions = await readDeleted(r.udb, r.index.table.id, limit, after);
  return json(200, revisions.map((rev) => view(rev, rev.record, undefined)));
};

/** Serves `/{table}/{id}/_history`, `/{table}/{id}/_restore` and `/{table}/_deleted` for a planned table request. */
export const serveHistory = async (r: DataRequest, req: CoreRequest, verb: "_history" | "_restore" | "_deleted"): Promise<CoreResponse> => {
  const method = verb === "_restore" ? "POST" : "GET";
  if (req.method !== method) throw methodNotAllowed([method]);
  requireHistory(r);
  if (verb === "_deleted") return deleted(r, req);
  if (verb === "_history") return history(r, req);
  return json(200, await restoreRevision(r, userFilter(r)));
};
