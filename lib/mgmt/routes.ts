// The management API's route table: every route with its permission, schemas and docs, by resource.
import { ACCOUNT_ROUTES } from "./account-routes";
import { AUDIT_ROUTES } from "./audit-routes";
import { AUTH_ROUTES } from "./auth-routes";
import { DATABASE_ROUTES } from "./database-routes";
import { JOIN_ROUTES } from "./join-routes";
import { KEY_ROUTES } from "./key-routes";
import { PLAN_ROUTES } from "./plan-routes";
import { TEAM_ROUTES } from "./team-routes";
import { AI_ROUTES } from "./ai-routes";
import { HOOK_ROUTES } from "./hook-routes";
import { DOCS_ROUTES } from "./docs-routes";
import { WEBHOOK_ROUTES } from "./webhook-routes";
import type { Route } from "./route";
import { SQL_ROUTES } from "./sql-routes";
import { TABLE_ROUTES } from "./table-routes";
import { VIEW_ROUTES } from "./view-routes";
import { MAIL_ROUTES } from "./mail-routes";
import { BACKUP_ROUTES } from "./backup-routes";

export type { Route } from "./route";

export const ROUTES: Route[] = [...DATABASE_ROUTES, ...TABLE_ROUTES, ...JOIN_ROUTES, ...AUTH_ROUTES, ...KEY_ROUTES, ...ACCOUNT_ROUTES, ...PLAN_ROUTES, ...TEAM_ROUTES, ...AI_ROUTES, ...HOOK_ROUTES, ...DOCS_ROUTES, ...WEBHOOK_ROUTES, ...SQL_ROUTES, ...VIEW_ROUTES, ...MAIL_ROUTES, ...BACKUP_ROUTES, ...AUDIT_ROUTES];

type Params = Record<string, string>;

/** Matches segments against a route path; returns the captured params or undefined. */
export const matchPath = (path: string, segments: string[]): Params | undefined => {
  const parts = path.split("/");
  if (parts.length !== segments.length) return undefined;
  const params: Params = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(":")) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return undefined;
  }
  return params;
};
