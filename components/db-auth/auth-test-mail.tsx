"use client";
// The Auth tab's "send a test mail": the database's verification mail (its template and sender, a sample link)
// to one address, through the install's mailer, so an admin sees its templates and delivery before users do.
import { useAccount } from "../api/use-account";
import { useSendAuthTestMail } from "../api/use-db-auth";
import { TestMailForm } from "../mail/test-mail-form";

export const AuthTestMail = ({ instance }: { instance: string }) => {
  const me = useAccount();
  const send = useSendAuthTestMail(instance);
  if (me.isLoading) return null;
  return (
    <TestMailForm
      id="auth-test-mail"
      title="Send a test mail"
      hint="This database's verification mail, with its sender and template and a sample link that verifies nobody."
      defaultTo={me.data?.email ?? ""}
      send={send}
    />
  );
};
