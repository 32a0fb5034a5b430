// What a role may do, from the same table the API's authorize decides with, so the dashboard never offers
// what the API would refuse (403) and never hides what it would allow.
import { type Level, ROLE_LEVELS } from "@/lib/teams/permissions";
import type { DatabaseRole, MemberRole } from "./types";

export type { Level };

/** `can("viewer", "write")` → false. An unknown role (still loading) may do nothing. */
export const can = (role: DatabaseRole | undefined, level: Level) => role !== undefined && ROLE_LEVELS[role].includes(level);

/** Why a control is disabled for a role that lacks `level`: shown as its title and in notes. */
export const whyNot = (level: Level) =>
  level === "admin" ? "Only the owner and admins can change this." : level === "write" ? "Viewers can read only." : "You have no access here.";

/** Each member role in one sentence, as the invite page and the Team page say it. */
export const ROLE_SUMMARY: Record<MemberRole, string> = {
  viewer: "A viewer reads schemas, data and API docs.",
  editor: "An editor reads and changes data and schemas, and creates databases in the workspace.",
  admin: "An admin does what an editor does, and manages members, invites, auth settings and policies, and deletes databases.",
};

export const roleLabel = (role: DatabaseRole) => role.charAt(0).toUpperCase() + role.slice(1);

/** Props that disable a control the role cannot use and say why (its tooltip); nothing when it can. */
export const lockedUnless = (allowed: boolean, level: Level): { disabled?: true; title?: string } => (allowed ? {} : { disabled: true, title: whyNot(level) });
