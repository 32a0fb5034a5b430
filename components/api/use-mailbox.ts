"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MailboxMessage } from "@/lib/contract/schemas/mailbox";
import { mgmt } from "./management-client";
import { queryKeys } from "./query-keys";

export type { MailboxMessage };

/** The install's mailbox (operator only), newest first; refreshed every few seconds while queued mails wait. */
export const useMailbox = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.mailbox,
    queryFn: () => mgmt<MailboxMessage[]>("mailbox?_limit=100"),
    enabled,
    refetchInterval: (q) => (q.state.data?.some((m) => m.status === "queued") ? 3_000 : false),
  });

/** Sends a test mail through the install's mailer (operator only); the answer is the mail as the mailbox shows it. */
export const useSendTestMail = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (to: string) => mgmt<MailboxMessage>("mailbox/test", { method: "POST", body: { to } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.mailbox }),
  });
};
