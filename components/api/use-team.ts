"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt, sessionApi } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Invite, InviteAccepted, InviteCreate, InviteInfo, Member, MemberRole, Workspace } from "./types";

/** A team route on your own workspace, or with `?workspace=<owner id>` on one where you are a member. */
const teamPath = (path: string, workspace?: number) => (workspace === undefined ? `team/${path}` : `team/${path}?workspace=${workspace}`);

export const useMembers = (workspace?: number) =>
  useQuery({ queryKey: queryKeys.members(workspace), queryFn: () => mgmt<Member[]>(teamPath("members", workspace)) });

/** Invites are for the owner and admins only (403 otherwise): ask only for a workspace you manage. */
export const useInvites = (workspace?: number) =>
  useQuery({ queryKey: queryKeys.invites(workspace), queryFn: () => mgmt<Invite[]>(teamPath("invites", workspace)) });

/** The workspaces you are a member of, with your role in each. */
export const useWorkspaces = () => useQuery({ queryKey: queryKeys.workspaces, queryFn: () => mgmt<Workspace[]>("team/workspaces") });

/** A team change moves the invitee count of the plan (GET /account) as well. */
const useTeamMutation = <I, O>(workspace: number | undefined, run: (input: I) => Promise<O>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: queryKeys.team(workspace) }), qc.invalidateQueries({ queryKey: queryKeys.account })]),
  });
};

export const useCreateInvite = (workspace?: number) =>
  useTeamMutation(workspace, (input: InviteCreate) => mgmt<Invite>(teamPath("invites", workspace), { method: "POST", body: input }));

export const useRevokeInvite = (workspace?: number) =>
  useTeamMutation(workspace, (id: number) => mgmt<void>(teamPath(`invites/${id}`, workspace), { method: "DELETE" }));

export const useUpdateMember = (workspace?: number) =>
  useTeamMutation(workspace, ({ account, role }: { account: number; role: MemberRole }) =>
    mgmt<Member>(teamPath(`members/${account}`, workspace), { method: "PATCH", body: { role } }),
  );

export const useRemoveMember = (workspace?: number) =>
  useTeamMutation(workspace, (account: number) => mgmt<void>(teamPath(`members/${account}`, workspace), { method: "DELETE" }));

/** The public description of an invite link: whose workspace, which role, whether it still works. */
export const useInviteInfo = (token: string) =>
  useQuery({ queryKey: queryKeys.invite(token), queryFn: () => sessionApi<InviteInfo>(`invite?token=${encodeURIComponent(token)}`) });

/** The signed-in account joins the workspace: its databases appear under "Shared with me". */
export const useAcceptInvite = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => mgmt<InviteAccepted>("team/invites/accept", { method: "POST", body: { token } }),
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: queryKeys.databases }), qc.invalidateQueries({ queryKey: queryKeys.workspaces })]),
  });
};
