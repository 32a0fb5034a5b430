// Short-lived single-use secrets of sign-in steps: an OAuth flow's state, the one-time code it ends with, an
// MFA token. The client holds the random token; the row holds its SHA-256, so a leaked table signs nobody in.
import { createHash, randomBytes } from "node:crypto";
import type { App } from "../app-type";

export type TicketKind = "oauth_flow" | "oauth_code" | "mfa" | "mfa_enroll";

export type Ticket = { id: number; userId: number | null; payload: Record<string, unknown>; tries: number };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new random token (256 bits, base64url). */
export const randomToken = () => randomBytes(32).toString("base64url");

type NewTicket = { kind: TicketKind; databaseId: number; ttlSeconds: number; userId?: number; payload?: Record<string, unknown> };

/** Stores a ticket and returns its token; expired tickets of every database go at the same time. */
export const createTicket = async (app: App, { kind, databaseId, ttlSeconds, userId, payload }: NewTicket) => {
  const token = randomToken();
  const now = new Date();
  await app.engine.meta.deleteFrom("auth_tickets").where("expires_at", "<", now.toISOString()).execute();
  await app.engine.meta
    .insertInto("auth_tickets")
    .values({
      database_id: databaseId,
      kind,
      token_hash: hashToken(token),
      user_id: userId ?? null,
      payload: payload ? JSON.stringify(payload) : null,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return token;
};

/** The live (unexpired) ticket of this kind and database for a token, without using it up. */
export const findTicket = async (app: App, kind: TicketKind, databaseId: number, token: unknown): Promise<Ticket | undefined> => {
  if (typeof token !== "string" || token.length < 20 || token.length > 200) return undefined;
  const row = await app.engine.meta
    .selectFrom("auth_tickets")
    .select(["id", "user_id", "payload", "tries"])
    .where("token_hash", "=", hashToken(token))
    .where("kind", "=", kind)
    .where("database_id", "=", databaseId)
    .where("expires_at", ">", new Date().toISOString())
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, userId: row.user_id === null ? null : Number(row.user_id), payload: row.payload ? JSON.parse(row.payload) : {}, tries: row.tries };
};

/** Uses a ticket up: true for the one caller whose delete removed it (two racing callers cannot both win). */
export const consumeTicket = async (app: App, id: number) => {
  const result = await app.engine.meta.deleteFrom("auth_tickets").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
};

/** Finds and uses up a ticket in one step: undefined when unknown, expired, or already used. */
export const claimTicket = async (app: App, kind: TicketKind, databaseId: number, token: unknown) => {
  const ticket = await findTicket(app, kind, databaseId, token);
  return ticket && (await consumeTicket(app, ticket.id)) ? ticket : undefined;
};

/** Counts a wrong code against a ticket; false once it has no tries left (it is then deleted). */
export const spendTry = async (app: App, ticket: Ticket, maxTries: number) => {
  const result = await app.engine.meta
    .updateTable("auth_tickets")
    .set((eb) => ({ tries: eb("tries", "+", 1) }))
    .where("id", "=", ticket.id)
    .where("tries", "<", maxTries - 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return true;
  await consumeTicket(app, ticket.id);
  return false;
};
