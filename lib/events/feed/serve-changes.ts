// GET /v1/{db}/_changes: the change feed as Server-Sent Events (docs/events.md). Keys see every row of the
// tables asked; JWT users the rows their select policy allows, judged on each event's record, and an update's
// previous row only when the policy allows that too. Tables are followed by id, fixed when the feed opens.
import type { App } from "../../app-type";
import { type Caller, authenticate } from "../../api/authenticate";
import { ApiError, invalidField, methodNotAllowed, notFound } from "../../errors";
import type { CoreRequest, CoreResponse } from "../../http/core-types";
import { loadDatabase } from "../../meta/load-schema";
import { parsedPolicy } from "../../rls/row-filter";
import type { DatabaseSchema } from "../../schema/types";
import { type ChangeEvent, outboxBounds } from "../outbox/read-events";
import { policyMatcher } from "./policy-match";
import { runFeed } from "./run-feed";
import { takeFeedSlot } from "./feed-slots";

/** EventSource cannot send headers: the feed also takes the credential as `access_token` (never logged). */
export const withAccessToken = (req: CoreRequest): CoreRequest => {
  const token = req.query.get("access_token");
  if (!token || req.header("x-api-key") || req.header("authorization")) return req;
  return { ...req, header: (name) => (name === "authorization" ? `Bearer ${token}` : req.header(name)) };
};

const closedTable = (table: string) => new ApiError("forbidden", `No select policy on table "${table}" allows this for your token.`);

/** The tables asked (all readable ones when `tables` is absent); joins have no events of their own. */
const tablesOf = (schema: DatabaseSchema, caller: Caller, param: string | null): string[] => {
  const readable = (name: string) => caller.kind === "key" || parsedPolicy(schema.tables.get(name)!, "select") !== null;
  if (param === null) {
    const all = [...schema.tables.keys()].filter(readable);
    if (all.length === 0) throw new ApiError("forbidden", "No table of this database has a select policy for your token.");
    return all;
  }
  const names = [...new Set(param.split(",").map((s) => s.trim()))];
  if (names.some((n) => n === "")) throw invalidField("tables", "invalid", "a comma-separated list of table names, e.g. tables=todos,notes");
  for (const name of names) {
    if (schema.joins?.has(name)) throw invalidField("tables", "join", `"${name}" is a join; joins have no change events, subscribe to its tables`);
    if (!schema.tables.has(name)) throw notFound(`Table "${name}" was not found in database "${schema.instance}".`);
    if (!readable(name)) throw closedTable(name);
  }
  return names;
};

const resumeOf = (req: CoreRequest): number | undefined => {
  const text = req.header("last-event-id") ?? req.query.get("last_event_id") ?? undefined;
  if (text === undefined || text === "") return undefined;
  if (!/^\d{1,15}$/.test(text)) throw invalidField("last_event_id", "invalid", "must be an event id (a whole number) from this feed");
  return Number(text);
};

type TableRef = { id: number; name: string };

/**
 * What this caller may see of each event now (the event, the event without `old_record`, or nothing), or false
 * when it may no longer read (token expired, policy gone, a table dropped or made again under its name).
 */
const visibility = async (app: App, req: CoreRequest, instance: string, tables: TableRef[]) => {
  const database = await loadDatabase(app, instance);
  if (!database) return false;
  const { schema } = database;
  if (tables.some((t) => schema.tables.get(t.name)?.id !== t.id)) return false;
  const caller = await authenticate(app, req, database).catch(() => undefined);
  if (!caller) return false;
  if (caller.kind === "key") return (event: ChangeEvent) => event;
  const claims = { ...caller.claims, id: caller.userId };
  const matchers = new Map<string, (record: Record<string, unknown>) => boolean>();
  for (const { name } of tables) {
    const table = schema.tables.get(name)!;
    const node = parsedPolicy(table, "select");
    if (!node) return false;
    matchers.set(name, policyMatcher(node, table, claims));
  }
  return (event: ChangeEvent): ChangeEvent | undefined => {
    const matches = matchers.get(event.table);
    const row = event.action === "delete" ? event.old_record : event.record;
    if (!matches || !row || !matches(row)) return undefined;
    if (event.action !== "update" || !event.old_record || matches(event.old_record)) return event;
    const { old_record: _hidden, ...shown } = event;
    return shown;
  };
};

export const serveChanges = async (app: App, req: CoreRequest, schema: DatabaseSchema, caller: Caller): Promise<CoreResponse> => {
  if (req.method !== "GET") throw methodNotAllowed(["GET"]);
  const tables = tablesOf(schema, caller, req.query.get("tables")).map((name) => ({ id: schema.tables.get(name)!.id, name }));
  const resume = resumeOf(req);
  const udb = app.engine.userDb(schema.physical);
  const release = takeFeedSlot(app, caller);
  try {
    // Read before the headers go out: a client that writes once it sees the stream open gets those events.
    const start = await outboxBounds(udb);
    return {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
      stream: (sink) =>
        runFeed({ app, udb, instance: schema.instance, physical: schema.physical, tables, resume, start, authorize: () => visibility(app, req, schema.instance, tables) }, sink).finally(release),
    };
  } catch (err) {
    release();
    throw err;
  }
};
