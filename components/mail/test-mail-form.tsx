"use client";
// "Send a test mail": one mail through the install's mailer, and what became of it. The operator's (Settings →
// Mailbox) and a database admin's (the Auth tab, with the database's templates) differ only in what they send.
import { type FormEvent, useState } from "react";
import type { UseMutationResult } from "@tanstack/react-query";
import { fieldErrors } from "../api/api-error";
import type { MailboxMessage } from "../api/use-mailbox";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";

export const MAIL_TONE = { kept: "indigo", queued: "amber", sent: "green", failed: "red" } as const;

const OUTCOME = {
  kept: "Written to the install's mailbox (no SMTP_URL is set).",
  sent: "The SMTP server took it.",
  queued: "The SMTP server did not take it yet; it will be tried again.",
  failed: "The SMTP server refused it.",
} as const;

type Props = {
  /** Tells the forms of one page apart (ids and the form's name). */
  id: string;
  title: string;
  hint?: string;
  defaultTo: string;
  send: UseMutationResult<MailboxMessage, Error, string>;
  /** What a kept mail's answer says (where the mail can be read). */
  keptNote?: string;
};

export const TestMailForm = ({ id, title, hint, defaultTo, send, keptNote = OUTCOME.kept }: Props) => {
  const [to, setTo] = useState(defaultTo);
  const invalid = fieldErrors(send.error).to;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate(to);
  };
  const input = `${id}-to`;
  return (
    <form onSubmit={submit} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label={title}>
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
      <div className="flex flex-wrap items-end gap-2">
        <Field label="To" htmlFor={input} error={invalid} className="min-w-0 flex-1 basis-64">
          <TextInput id={input} type="email" required value={to} onChange={(e) => setTo(e.target.value)} invalid={!!invalid} aria-describedby={invalid ? `${input}-error` : undefined} />
        </Field>
        <Button type="submit" variant="primary" pending={send.isPending}>
          Send test mail
        </Button>
      </div>
      {send.error && !invalid && <p role="alert" className="text-sm text-red-700">{send.error.message}</p>}
      {send.data && (
        <p role="status" className="text-sm text-slate-700">
          <Badge tone={MAIL_TONE[send.data.status]}>{send.data.status}</Badge> {send.data.status === "kept" ? keptNote : OUTCOME[send.data.status]}
          {send.data.error && <span className="block text-xs text-red-700">{send.data.error}</span>}
        </p>
      )}
    </form>
  );
};
