import { MailboxPage } from "@/components/mail/mailbox-page";

export const metadata = { title: "Mailbox · Tabula" };

export default MailboxPage;
