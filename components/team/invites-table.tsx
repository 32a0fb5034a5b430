"use client";
import { useState } from "react";
import type { Invite } from "../api/types";
import { useInvites, useRevokeInvite } from "../api/use-team";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyButton } from "../ui/copy-button";
import { ErrorState, LoadingState } from "../ui/states";
import { Table } from "../ui/table";
import { formatDateTime, INVITE_STATUS } from "./team-wording";

/** The workspace's invites (newest first) with their links; a pending one can be copied or revoked. */
export const InvitesTable = ({ workspace }: { workspace?: number }) => {
  const invites = useInvites(workspace);
  const revoke = useRevokeInvite(workspace);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  if (invites.isLoading) return <LoadingState label="Loading invites…" />;
  if (invites.error) return <ErrorState error={invites.error} title="Could not load the invites" onRetry={() => invites.refetch()} />;
  if (!invites.data?.length) return <p className="text-sm text-slate-500">No invites yet.</p>;
  const close = () => {
    setRevoking(null);
    revoke.reset();
  };
  const pending = revoking?.status === "pending";
  return (
    <>
      <Table label="Invites" columns={["Invite", "Link", "Uses", "Expires", "Status", { label: "Actions", hidden: true }]}>
        {invites.data.map((i) => (
          <tr key={i.id} data-invite={i.id}>
            <td className="max-w-56 px-4 py-2.5">
              <Badge>{i.role}</Badge>
              <span className="mt-0.5 block truncate text-xs text-slate-600" title={i.email ?? undefined}>
                {i.email ?? "anyone with the link"}
              </span>
            </td>
            <td className="px-4 py-2.5">
              <div className="flex items-center gap-1.5">
                <code className="block max-w-48 truncate rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700" title={i.url}>
                  {i.url}
                </code>
                {i.status === "pending" && <CopyButton text={i.url} label="Copy link" />}
              </div>
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-700 tabular-nums">
              {i.uses} / {i.max_uses}
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-600">{formatDateTime(i.expires_at)}</td>
            <td className="px-4 py-2.5">
              <Badge tone={INVITE_STATUS[i.status].tone}>{INVITE_STATUS[i.status].label}</Badge>
            </td>
            <td className="px-4 py-2.5 text-right">
              <Button size="sm" variant="ghost" className="text-red-600 hover:text-red-700" onClick={() => setRevoking(i)}>
                {i.status === "pending" ? "Revoke" : "Remove"}
              </Button>
            </td>
          </tr>
        ))}
      </Table>
      <ConfirmDialog
        open={revoking !== null}
        onClose={close}
        title={pending ? "Revoke this invite?" : "Remove this invite from the list?"}
        consequences={
          pending ? (
            <p>Its link stops working at once (whoever opens it is told it was revoked), and its unused seats are free again. Members who joined with it stay.</p>
          ) : (
            <p>It no longer works already; removing it only takes it off this list. Members who joined with it stay.</p>
          )
        }
        confirmLabel={pending ? "Revoke invite" : "Remove invite"}
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: close })}
      />
    </>
  );
};
