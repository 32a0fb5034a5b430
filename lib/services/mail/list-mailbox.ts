// GET /api/v1/mailbox: the install's mails, newest first, for the operator.
import type { z } from "zod";
import type { MailboxQuery, MailboxMessage } from "../../contract/schemas/mailbox";
import type { App } from "../../app-type";
import type { Ctx } from "../../meta/context";

export type ListMailboxInput = { query: z.output<typeof MailboxQuery> };

const selectMail = (app: App) =>
  app.engine.meta
    .selectFrom("mailbox as m")
    .leftJoin("databases as d", "d.id", "m.database_id")
    .select(["m.id", "m.kind", "d.instance", "m.to_address", "m.from_address", "m.subject", "m.text", "m.html", "m.status", "m.attempts", "m.next_attempt_at", "m.error", "m.created_at", "m.sent_at"]);

type MailRow = Awaited<ReturnType<ReturnType<typeof selectMail>["executeTakeFirstOrThrow"]>>;

const mailView = (r: MailRow): MailboxMessage => ({
  id: Number(r.id),
  kind: r.kind as MailboxMessage["kind"],
  database: r.instance ?? null,
  to: r.to_address,
  from: r.from_address,
  subject: r.subject,
  text: r.text,
  html: r.html,
  status: r.status as MailboxMessage["status"],
  attempts: r.attempts,
  next_attempt_at: r.status === "queued" ? r.next_attempt_at : null,
  error: r.error,
  created_at: r.created_at,
  sent_at: r.sent_at,
});

/** One mail of the mailbox as the list shows it. */
export const getMail = async (app: App, id: number) => mailView(await selectMail(app).where("m.id", "=", id).executeTakeFirstOrThrow());

export const listMailbox = async (ctx: Ctx, { query }: ListMailboxInput): Promise<MailboxMessage[]> => {
  let q = selectMail(ctx.app);
  if (query.status) q = q.where("m.status", "=", query.status);
  if (query.to) q = q.where("m.to_address", "=", query.to);
  const rows = await q.orderBy("m.id", "desc").limit(query._limit ?? 50).execute();
  return rows.map(mailView);
};
