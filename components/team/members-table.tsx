"use client";
import { useState } from "react";
import { ROLE_SUMMARY } from "../api/can";
import { MEMBER_ROLES } from "../api/use-plans";
import type { Member, MemberRole } from "../api/types";
import { useMembers, useRemoveMember, useUpdateMember } from "../api/use-team";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { SelectInput } from "../ui/field";
import { ErrorState, FormError, LoadingState } from "../ui/states";
import { Table } from "../ui/table";
import { formatDate } from "./team-wording";

type Props = {
  /** The owner's id when it is not your own workspace. */
  workspace?: number;
  owner: { id: number; email: string };
  /** Your account id, to mark "(you)". */
  me?: number;
  /** Owner or admin: roles change in place and members can be removed. */
  manage: boolean;
  /** The roles the plan lets the owner give; undefined when unknown (someone else's plan: the API decides). */
  allowedRoles?: readonly MemberRole[];
};

const RoleSelect = ({ member, workspace, allowedRoles }: { member: Member; workspace?: number; allowedRoles?: readonly MemberRole[] }) => {
  const update = useUpdateMember(workspace);
  // A role change takes effect on the member's next request: it is asked for, not applied on select.
  const [asked, setAsked] = useState<MemberRole | null>(null);
  return (
    <div>
      <ConfirmDialog
        open={asked !== null}
        onClose={() => setAsked(null)}
        title={`Make ${member.account.email} ${asked && /^[aeiou]/.test(asked) ? "an" : "a"} ${asked}?`}
        consequences={<>{asked && ROLE_SUMMARY[asked]} It applies from their next request, on every database of the workspace.</>}
        confirmLabel={`Make ${asked}`}
        danger={false}
        onConfirm={() => {
          if (asked) update.mutate({ account: member.account.id, role: asked });
          setAsked(null);
        }}
      />
      <SelectInput
        aria-label={`Role of ${member.account.email}`}
        className="w-32"
        value={update.isPending ? update.variables.role : member.role}
        disabled={update.isPending}
        onChange={(e) => setAsked(e.target.value as MemberRole)}
      >
        {MEMBER_ROLES.map((r) => {
          const off = allowedRoles !== undefined && !allowedRoles.includes(r) && r !== member.role;
          return (
            <option key={r} value={r} disabled={off}>
              {r}
              {off ? " (not on your plan)" : ""}
            </option>
          );
        })}
      </SelectInput>
      {update.error ? (
        <div className="mt-1 max-w-xs">
          <FormError error={update.error} />
        </div>
      ) : null}
    </div>
  );
};

/** The workspace's people: the owner first (every permission, never a member row), then each member and role. */
export const MembersTable = ({ workspace, owner, me, manage, allowedRoles }: Props) => {
  const members = useMembers(workspace);
  const remove = useRemoveMember(workspace);
  const [removing, setRemoving] = useState<Member | null>(null);
  if (members.isLoading) return <LoadingState label="Loading members…" />;
  if (members.error) return <ErrorState error={members.error} title="Could not load the members" onRetry={() => members.refetch()} />;
  const you = (id: number) => (id === me ? <span className="text-slate-500"> (you)</span> : null);
  const close = () => {
    setRemoving(null);
    remove.reset();
  };
  return (
    <>
      <Table label="Members" columns={["Account", "Role", "Joined", { label: "Actions", hidden: true }]}>
        <tr data-member={owner.email}>
          <td className="px-4 py-2.5 text-slate-900">
            {owner.email}
            {you(owner.id)}
          </td>
          <td className="px-4 py-2.5">
            <Badge tone="indigo">owner</Badge>
          </td>
          <td className="px-4 py-2.5 text-slate-500">—</td>
          <td />
        </tr>
        {members.data?.map((m) => (
          <tr key={m.account.id} data-member={m.account.email}>
            <td className="px-4 py-2.5 text-slate-900">
              {m.account.email}
              {you(m.account.id)}
            </td>
            <td className="px-4 py-2.5">{manage ? <RoleSelect member={m} workspace={workspace} allowedRoles={allowedRoles} /> : <Badge>{m.role}</Badge>}</td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-600">{formatDate(m.joined_at)}</td>
            <td className="px-4 py-2.5 text-right">
              {manage && (
                <Button size="sm" variant="ghost" className="text-red-600 hover:text-red-700" onClick={() => setRemoving(m)} aria-label={`Remove ${m.account.email}`}>
                  Remove
                </Button>
              )}
            </td>
          </tr>
        ))}
      </Table>
      {members.data?.length === 0 && <p className="mt-2 text-sm text-slate-500">No members yet{manage ? ": invite someone below." : "."}</p>}
      <ConfirmDialog
        open={removing !== null}
        onClose={close}
        title={`Remove ${removing?.account.email}?`}
        consequences={
          <>
            <p>They lose every database of this workspace from their next request. The databases they created stay here.</p>
            <p>Their seat is free again; invite them anew to bring them back.</p>
          </>
        }
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing.account.id, { onSuccess: close })}
      />
    </>
  );
};
