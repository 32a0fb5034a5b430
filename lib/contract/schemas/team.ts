import { z } from "zod";
import { MEMBER_ROLES } from "../../plans/default-plans";
import { component, Timestamp, WorkspaceParam } from "./common";

const Role = z.enum(MEMBER_ROLES).meta({ description: "`viewer`: reads schema, data and docs; `editor`: also changes data and schema and creates databases here; `admin`: also keys, members, invites, auth, policies." });

export const Person = component("Person", z.object({ id: z.int(), email: z.string() }).meta({ example: { id: 2, email: "ana@example.com" } }));

export const WorkspaceQuery = z.object({ workspace: WorkspaceParam("The owner's account id of the workspace to act on; default your own.") });

export const InviteCreate = component(
  "InviteCreate",
  z
    .strictObject({
      role: Role,
      email: z.email().optional().meta({ description: "Where to send the link (when the server has SMTP_URL); the link works for whoever opens it." }),
      expires_in_hours: z.int().min(1).max(8760).optional().meta({ default: 168 }),
      max_uses: z.int().min(1).max(1000).optional().meta({ default: 1, description: "Each use adds one member; the plan counts unused ones as invitees." }),
    })
    .meta({ example: { role: "editor", email: "ana@example.com" } }),
);

const INVITE_EXAMPLE = {
  id: 4,
  role: "editor",
  email: "ana@example.com",
  url: "https://tabula.example.com/invite/inv_q8Jx2mV0rT7wK1nB5cY9pL3sD6fH4gA0zE2uI8oN1iM",
  token: "inv_q8Jx2mV0rT7wK1nB5cY9pL3sD6fH4gA0zE2uI8oN1iM",
  expires_at: "2024-05-08T12:00:00.000Z",
  max_uses: 1,
  uses: 0,
  status: "pending",
  created_at: "2024-05-01T12:00:00.000Z",
};

export const Invite = component(
  "Invite",
  z
    .object({
      id: z.int(),
      role: Role,
      email: z.string().nullable(),
      url: z.string().meta({ description: "The link to share: it opens the invite page (sign in or sign up, then accept)." }),
      token: z.string(),
      expires_at: Timestamp,
      max_uses: z.int(),
      uses: z.int(),
      status: z.enum(["pending", "expired", "used_up", "revoked"]),
      created_at: Timestamp,
      email_sent: z.boolean().optional().meta({ description: "On create: whether the email went out (false without SMTP_URL or when it failed)." }),
    })
    .meta({ example: { ...INVITE_EXAMPLE, email_sent: true } }),
);

export const InviteAccept = component("InviteAccept", z.strictObject({ token: z.string().min(1).max(200) }).meta({ example: { token: INVITE_EXAMPLE.token } }));

export const InviteAccepted = component(
  "InviteAccepted",
  z.object({ workspace: z.object({ owner: Person }), role: Role }).meta({ example: { workspace: { owner: { id: 1, email: "owner@example.com" } }, role: "editor" } }),
);

export const Member = component(
  "Member",
  z
    .object({ account: Person, role: Role, invited_by: z.int().nullable(), joined_at: Timestamp })
    .meta({ example: { account: { id: 2, email: "ana@example.com" }, role: "editor", invited_by: 1, joined_at: "2024-05-01T12:00:00.000Z" } }),
);

export const MemberPatch = component("MemberPatch", z.strictObject({ role: Role }).meta({ example: { role: "viewer" } }));

export const Workspace = component(
  "Workspace",
  z
    .object({ owner: Person, role: Role, joined_at: Timestamp })
    .meta({ example: { owner: { id: 1, email: "owner@example.com" }, role: "editor", joined_at: "2024-05-01T12:00:00.000Z" } }),
);

export type InviteCreate = z.input<typeof InviteCreate>;
export type Invite = z.output<typeof Invite>;
export type Member = z.output<typeof Member>;
export type Workspace = z.output<typeof Workspace>;
export type InviteAccepted = z.output<typeof InviteAccepted>;
