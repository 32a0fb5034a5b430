// Shared pieces of the upsert and write-by-filter suites: the outbox read as it grows, and two database-auth
// users (A and B) of a database whose users table is `users (email, password)`.
import { loadSchema } from "../../lib/meta/load-schema";
import { readEvents } from "../../lib/events/outbox/read-events";
import type { Harness } from "../helpers/harness";
import { insert, type TableInput } from "./contract-helpers";
import { login } from "../security/security-fixture";

/** The users table of database auth, as both suites make it. */
export const USERS_TABLE: TableInput = {
  name: "users",
  columns: [{ name: "email", type: "varchar", unique: true, nullable: false }, { name: "password", type: "password", nullable: false }],
};

/** A reader of the database's outbox: each call returns the events written since the previous one. */
export const outboxReader = (h: Harness, db: () => string) => {
  let cursor = 0;
  return async () => {
    const schema = (await loadSchema(h.app, db()))!;
    const entries = await readEvents(h.app.engine.userDb(schema.physical), db(), cursor, 20_000);
    if (entries.length) cursor = entries[entries.length - 1].id;
    return entries.map((e) => e.event!);
  };
};

/** Users A and B, created with the harness's key, each logged in. */
export const twoUsers = async (h: Harness, db: string) => {
  const a = await insert(h, `/v1/${db}/users`, { email: "a@example.com", password: "alpha-password-1" });
  await insert(h, `/v1/${db}/users`, { email: "b@example.com", password: "bravo-password-2" });
  return {
    idA: a.id as number,
    tokenA: await login(h, db, "a@example.com", "alpha-password-1"),
    tokenB: await login(h, db, "b@example.com", "bravo-password-2"),
  };
};
