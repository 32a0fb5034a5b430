import { z } from "zod";
import { acceptInviteRoute, createInvite, listInvites, revokeInvite } from "../services/teams/invites";
import { listMembers, listWorkspaces, removeMember, updateMember } from "../services/teams/members";
import { defineRoute } from "./route";
import { Invite, InviteAccept, InviteAccepted, InviteCreate, Member, MemberPatch, Workspace, WorkspaceQuery } from "../contract/schemas/team";

const IN_WORKSPACE = "Acts on your own workspace, or on the one `?workspace=<owner id>` names where you are an admin.";

export const TEAM_ROUTES = [
  defineRoute({
    method: "POST", path: "team/invites", permission: "workspace:admin", workspaceFrom: "query", quota: "invitees", tag: "Team", operationId: "createInvite",
    summary: "Invite someone", description: `A link that makes whoever accepts it a member with \`role\`. The plan caps invitees (members plus unused invite seats) and the roles you may give: 402. ${IN_WORKSPACE}`,
    query: WorkspaceQuery, body: InviteCreate, status: 201, response: Invite,
    run: (ctx, { body }) => createInvite(ctx, { body }),
  }),
  defineRoute({
    method: "GET", path: "team/invites", permission: "workspace:admin", workspaceFrom: "query", tag: "Team", operationId: "listInvites",
    summary: "List invites", description: `Invites not revoked, newest first, with their links and status. ${IN_WORKSPACE}`,
    query: WorkspaceQuery, status: 200, response: z.array(Invite),
    run: (ctx) => listInvites(ctx, {}),
  }),
  defineRoute({
    method: "DELETE", path: "team/invites/:invite", permission: "workspace:admin", workspaceFrom: "query", tag: "Team", operationId: "revokeInvite",
    summary: "Revoke an invite", description: `Its link stops working at once (410). ${IN_WORKSPACE}`,
    query: WorkspaceQuery, status: 204,
    run: (ctx, { invite }) => revokeInvite(ctx, { id: invite }),
  }),
  defineRoute({
    method: "POST", path: "team/invites/accept", permission: "account:write", tag: "Team", operationId: "acceptInvite",
    summary: "Accept an invite", description: "The caller becomes a member of the inviting workspace. Unknown token 404; expired, revoked or used up 410; your own workspace, or one you are already in, 409.",
    body: InviteAccept, status: 200, response: InviteAccepted, errors: ["not_found", "conflict", "gone"],
    run: (ctx, { body }) => acceptInviteRoute(ctx, { body }),
  }),
  defineRoute({
    method: "GET", path: "team/members", permission: "workspace:read", workspaceFrom: "query", tag: "Team", operationId: "listMembers",
    summary: "List members", description: `Members with their roles (the owner is not a member: it holds every permission). ${IN_WORKSPACE.replace("are an admin", "are a member")}`,
    query: WorkspaceQuery, status: 200, response: z.array(Member),
    run: (ctx) => listMembers(ctx, {}),
  }),
  defineRoute({
    method: "PATCH", path: "team/members/:account", permission: "workspace:admin", workspaceFrom: "query", quota: "member_role", tag: "Team", operationId: "updateMember",
    summary: "Change a member's role", description: `Effective at the member's next request, in every process; a role the plan does not allow is 402. ${IN_WORKSPACE}`,
    query: WorkspaceQuery, body: MemberPatch, status: 200, response: Member,
    run: (ctx, { account, body }) => updateMember(ctx, { account, body }),
  }),
  defineRoute({
    method: "DELETE", path: "team/members/:account", permission: "workspace:admin", workspaceFrom: "query", tag: "Team", operationId: "removeMember",
    summary: "Remove a member", description: `The account loses every database of the workspace at its next request; databases it created stay. ${IN_WORKSPACE}`,
    query: WorkspaceQuery, status: 204,
    run: (ctx, { account }) => removeMember(ctx, { account }),
  }),
  defineRoute({
    method: "GET", path: "team/workspaces", permission: "account:read", tag: "Team", operationId: "listWorkspaces",
    summary: "Workspaces you belong to", description: "Every workspace where the caller is a member, with its owner and the caller's role.",
    status: 200, response: z.array(Workspace),
    run: (ctx) => listWorkspaces(ctx, {}),
  }),
];
