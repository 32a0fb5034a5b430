// A database with database auth on, two users (A and B), a notes table with owner policies and a closed table,
// shared by the security suites. Every suite makes its own fixture (its own database) on its own harness.
import { expect } from "vitest";
import type { Harness } from "../helpers/harness";
import { createDatabase } from "../contract/contract-helpers";

export const PASSWORD_A = "alpha-password-1";
export const PASSWORD_B = "bravo-password-2";

export const NOTE_POLICIES = {
  select: "public = true or owner_id = auth.id",
  insert: "owner_id = auth.id",
  update: "owner_id = auth.id",
  delete: "owner_id = auth.id",
};

export type Fixture = {
  db: string;
  userA: { id: number; token: string };
  userB: { id: number; token: string };
  /** Note ids by label: a1..a3 private to A, ap public by A, b1 b2 private to B, bp public by B. */
  notes: Record<string, number>;
  bearer: (token: string) => { headers: Record<string, string>; key: null };
};

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` }, key: null as null });

export const login = async (h: Harness, db: string, email: string, password: string) => {
  const reply = await h.request("POST", `/v1/${db}/auth/login`, { body: { email, password }, key: null });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.token as string;
};

export const enableAuth = async (h: Harness, db: string, extra: Record<string, unknown> = {}) => {
  const reply = await h.request("PUT", `/api/v1/databases/${db}/auth`, {
    body: { enabled: true, users_table: "users", login_column: "email", password_column: "password", signup: true, ...extra },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
};

export const putPolicies = async (h: Harness, db: string, table: string, policies: Record<string, string | null>) => {
  const reply = await h.request("PUT", `/api/v1/databases/${db}/tables/${table}/policies`, { body: policies });
  expect(reply.status, reply.text).toBe(200);
};

export const makeFixture = async (h: Harness, name = "sec"): Promise<Fixture> => {
  const db = await createDatabase(h, name, [
    {
      name: "users",
      columns: [
        { name: "email", type: "varchar", unique: true, nullable: false },
        { name: "password", type: "password", nullable: false },
        { name: "display_name", type: "varchar" },
      ],
    },
    {
      name: "notes",
      columns: [
        { name: "title", type: "varchar", nullable: false },
        { name: "body", type: "text" },
        { name: "rank", type: "int" },
        { name: "public", type: "boolean", nullable: false, default: false },
        { name: "owner_id", type: "bigint", default: "auth.id" },
        { name: "parent_id", type: "reference", references: "notes" },
      ],
    },
    { name: "secrets", columns: [{ name: "value", type: "varchar" }] },
  ]);
  await enableAuth(h, db);
  await putPolicies(h, db, "notes", NOTE_POLICIES);
  await putPolicies(h, db, "users", { select: "id = auth.id", update: "id = auth.id" });
  const a = await h.request("POST", `/v1/${db}/users`, { body: { email: "a@example.com", password: PASSWORD_A, display_name: "Alpha" } });
  const b = await h.request("POST", `/v1/${db}/users`, { body: { email: "b@example.com", password: PASSWORD_B, display_name: "Bravo" } });
  expect(a.status, a.text).toBe(201);
  expect(b.status, b.text).toBe(201);
  const rows = [
    ["a1", "alpha one", a.body.id, false, 3],
    ["a2", "alpha two", a.body.id, false, 1],
    ["a3", "alpha three", a.body.id, false, 5],
    ["ap", "alpha public", a.body.id, true, 2],
    ["b1", "bravo one secret", b.body.id, false, 4],
    ["b2", "bravo two secret", b.body.id, false, 6],
    ["bp", "bravo public", b.body.id, true, 0],
  ] as const;
  const created = await h.request("POST", `/v1/${db}/notes`, {
    body: rows.map(([label, title, owner, isPublic, rank]) => ({ title, body: `${label} body`, owner_id: owner, public: isPublic, rank })),
  });
  expect(created.status, created.text).toBe(201);
  const notes = Object.fromEntries(rows.map(([label], i) => [label, created.body[i].id as number]));
  return {
    db,
    userA: { id: a.body.id, token: await login(h, db, "a@example.com", PASSWORD_A) },
    userB: { id: b.body.id, token: await login(h, db, "b@example.com", PASSWORD_B) },
    notes,
    bearer,
  };
};
