"use client";
import { useState } from "react";
import { useAccount } from "../api/use-account";
import { type MailboxMessage, useMailbox, useSendTestMail } from "../api/use-mailbox";
import { MAIL_TONE, TestMailForm } from "./test-mail-form";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { Table } from "../ui/table";

const WHAT = { invite: "Team invite", verify: "Email verification", reset: "Password reset", otp: "Sign-in code", test: "Test mail" } as const;

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
        <Badge tone={MAIL_TONE[mail.status]}>{mail.status}</Badge>
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
  const send = useSendTestMail();
  const [opened, setOpened] = useState<number | null>(null);
  if (me.isLoading) return <LoadingState />;
  if (!isOperator) return <ErrorState error={new Error("Only the operator of this install reads its mailbox.")} title="Not available" />;
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title="Mailbox"
        description="Every mail this install wrote: team invites and your databases' users' verification, password reset and sign-in code mails. Without SMTP_URL they stay here (kept); with it, they are sent, and one the server did not take waits here with its error until it is tried again."
      />
      <TestMailForm id="test-mail" title="Send a test mail" defaultTo={me.data?.email ?? ""} send={send} keptNote="Written to the mailbox below (no SMTP_URL is set)." />
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
