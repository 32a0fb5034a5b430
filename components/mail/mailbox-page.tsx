"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useAccount } from "../api/use-account";
import { type MailboxMessage, useMailbox, useSendTestMail } from "../api/use-mailbox";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { Table } from "../ui/table";

const TONE = { kept: "indigo", queued: "amber", sent: "green", failed: "red" } as const;
const WHAT = { invite: "Team invite", verify: "Email verification", reset: "Password reset", otp: "Sign-in code", test: "Test mail" } as const;

const OUTCOME = {
  kept: "Written to the mailbox below (no SMTP_URL is set).",
  sent: "The SMTP server took it.",
  queued: "The SMTP server did not take it yet; it will be tried again.",
  failed: "The SMTP server refused it.",
} as const;

/** "Send a test mail": one mail through the install's mailer, and what became of it. */
const TestMailForm = ({ defaultTo }: { defaultTo: string }) => {
  const [to, setTo] = useState(defaultTo);
  const send = useSendTestMail();
  const invalid = fieldErrors(send.error).to;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate(to);
  };
  return (
    <form onSubmit={submit} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label="Send a test mail">
      <h2 className="text-sm font-semibold text-slate-900">Send a test mail</h2>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="To" htmlFor="test-mail-to" error={invalid} className="min-w-0 flex-1 basis-64">
          <TextInput id="test-mail-to" type="email" required value={to} onChange={(e) => setTo(e.target.value)} invalid={!!invalid} aria-describedby={invalid ? "test-mail-to-error" : undefined} />
        </Field>
        <Button type="submit" variant="primary" pending={send.isPending}>
          Send test mail
        </Button>
      </div>
      {send.error && !invalid && <p role="alert" className="text-sm text-red-700">{send.error.message}</p>}
      {send.data && (
        <p role="status" className="text-sm text-slate-700">
          <Badge tone={TONE[send.data.status]}>{send.data.status}</Badge> {OUTCOME[send.data.status]}
          {send.data.error && <span className="block text-xs text-red-700">{send.data.error}</span>}
        </p>
      )}
    </form>
  );
};

const when = (iso: string) => new Date(iso).toLocaleString();

/** One mail's row, and its text below it when opened. */
const MailRow = ({ mail, open, onToggle }: { mail: MailboxMessage; open: boolean; onToggle: () => void }) => (
  <>
    <tr className="align-top">
      <td className="px-4 py-2">
        <button type="button" onClick={onToggle} aria-expanded={open} className="text-left font-medium text-indigo-700 hover:underline">
          {mail.subject}
        </button>
        <span className="block text-xs text-slate-500">
          {WHAT[mail.kind]}
          {mail.database ? ` · ${mail.database}` : ""}
        </span>
      </td>
      <td className="px-4 py-2 text-slate-700">{mail.to}</td>
      <td className="px-4 py-2">
        <Badge tone={TONE[mail.status]}>{mail.status}</Badge>
        {mail.error && <span className="mt-1 block max-w-xs text-xs text-red-700">{mail.error}</span>}
        {mail.status === "queued" && mail.next_attempt_at && <span className="block text-xs text-slate-500">next try {when(mail.next_attempt_at)}</span>}
      </td>
      <td className="px-4 py-2 text-right text-slate-600 tabular-nums">{mail.attempts}</td>
      <td className="px-4 py-2 whitespace-nowrap text-slate-600">{when(mail.created_at)}</td>
    </tr>
    {open && (
      <tr>
        <td colSpan={5} className="bg-slate-50 px-4 py-3">
          <p className="mb-2 text-xs text-slate-500">From {mail.from}</p>
          <pre className="text-sm whitespace-pre-wrap break-all text-slate-800">{mail.text}</pre>
        </td>
      </tr>
    )}
  </>
);

/** Developer Settings → Mailbox (operator only): every mail the install wrote, and what became of it. */
export const MailboxPage = () => {
  const me = useAccount();
  const isOperator = !!me.data?.is_operator;
  const mailbox = useMailbox(isOperator);
  const [opened, setOpened] = useState<number | null>(null);
  if (me.isLoading) return <LoadingState />;
  if (!isOperator) return <ErrorState error={new Error("Only the operator of this install reads its mailbox.")} title="Not available" />;
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title="Mailbox"
        description="Every mail this install wrote: team invites and your databases' users' verification, password reset and sign-in code mails. Without SMTP_URL they stay here (kept); with it, they are sent, and one the server did not take waits here with its error until it is tried again."
      />
      <TestMailForm defaultTo={me.data?.email ?? ""} />
      {mailbox.isLoading ? (
        <LoadingState label="Loading mail…" />
      ) : mailbox.error ? (
        <ErrorState error={mailbox.error} onRetry={() => mailbox.refetch()} />
      ) : mailbox.data?.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">No mail yet.</p>
      ) : (
        <Table label="Mailbox" columns={["Subject", "To", "Status", { label: "Tries", align: "right" }, "Written"]}>
          {mailbox.data?.map((m) => (
            <MailRow key={m.id} mail={m} open={opened === m.id} onToggle={() => setOpened(opened === m.id ? null : m.id)} />
          ))}
        </Table>
      )}
    </div>
  );
};
