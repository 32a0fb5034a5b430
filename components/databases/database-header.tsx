"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { ExtendWithAi } from "../ai/extend-with-ai";
import { ApiRequestError } from "../api/api-error";
import { can, roleLabel } from "../api/can";
import type { Database } from "../api/types";
import { useDatabase } from "../api/use-databases";
import { Badge } from "../ui/badge";
import { CopyButton } from "../ui/copy-button";
import { IntentLink } from "../ui/intent-link";
import { ErrorState, LoadingState, NotFoundState } from "../ui/states";

const TABS: { segment: string; label: string; /** Shown to owners and admins only. */ admin?: boolean }[] = [
  { segment: "schema", label: "Schema" },
  { segment: "data", label: "Data" },
  { segment: "joins", label: "Joins" },
  { segment: "sql", label: "SQL", admin: true },
  { segment: "auth", label: "Auth" },
  { segment: "hooks", label: "Hooks" },
  { segment: "webhooks", label: "Webhooks" },
  { segment: "docs", label: "API Docs" },
  { segment: "activity", label: "Activity", admin: true },
  { segment: "settings", label: "Settings" },
];

/** On someone else's database: what your role there leaves you (admins can do everything, so they get no note). */
const RoleNote = ({ db }: { db: Database }) => {
  const where = `${db.owner.email}’s workspace`;
  const text =
    db.role === "viewer"
      ? `You are a viewer in ${where}: you can read the schema, data and API docs, not change them.`
      : db.role === "editor"
        ? `You are an editor in ${where}: you change data and schema; auth settings, policies and deleting the database are for the owner and admins.`
        : undefined;
  return text ? (
    <p role="note" aria-label="Your role" className="mt-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
      {text}
    </p>
  ) : null;
};

/** The database's name, its API base and the tabs: Schema, Data, Joins, Auth, Hooks, API Docs, Settings. */
export const DatabaseHeader = ({ instance, children }: { instance: string; children: ReactNode }) => {
  const pathname = usePathname();
  const database = useDatabase(instance);
  if (database.isLoading) return <LoadingState label="Loading the database…" />;
  if (database.error instanceof ApiRequestError && database.error.status === 404) {
    return (
      <NotFoundState title="Database not found" backHref="/databases" backLabel="Back to your databases">
        There is no database <code className="font-mono">{instance}</code> that you can open: it may have been deleted, or belong to a workspace you are not a member of.
      </NotFoundState>
    );
  }
  if (database.error) return <ErrorState error={database.error} title={`Could not open database ${instance}`} onRetry={() => database.refetch()} />;
  const db = database.data!;
  const apiBase = typeof window === "undefined" ? db.api_base : `${window.location.origin}${db.api_base}`;
  const shared = db.role !== "owner";
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs text-slate-500">
            <Link href={shared ? "/databases?scope=shared" : "/databases"} className="hover:text-slate-800">
              {shared ? "Shared with me" : "Databases"}
            </Link>{" "}
            /
          </p>
          <div className="flex items-center gap-2">
            <h1 className="truncate text-xl font-semibold text-slate-900">{db.name}</h1>
            {shared && <Badge tone={db.role === "viewer" ? "slate" : "indigo"}>{roleLabel(db.role)}</Badge>}
          </div>
          {shared && (
            <p className="text-xs text-slate-500">
              Owner <span className="font-medium text-slate-700">{db.owner.email}</span> · created by{" "}
              <span className="font-medium text-slate-700">{db.creator.email}</span>
            </p>
          )}
        </div>
        <div className="flex max-w-full min-w-0 flex-wrap items-center gap-2">
          {can(db.role, "write") && <ExtendWithAi db={db} />}
          <div className="flex max-w-full min-w-0 items-center gap-2 rounded-md border border-slate-200 bg-white py-1 pr-1 pl-3">
            <span className="text-xs text-slate-500">API</span>
            <code className="min-w-0 font-mono text-xs break-all text-slate-800">{apiBase}</code>
            <CopyButton text={apiBase} />
          </div>
        </div>
      </div>
      <nav className="-mx-4 mt-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 md:mx-0 md:px-0" aria-label="Database sections">
        {TABS.filter((tab) => !tab.admin || can(db.role, "admin")).map((tab) => {
          const href = `/databases/${instance}/${tab.segment}`;
          const active = pathname.startsWith(href);
          return (
            <IntentLink
              key={tab.segment}
              href={href}
              aria-current={active ? "page" : undefined}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${
                active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
              }`}
            >
              {tab.label}
            </IntentLink>
          );
        })}
      </nav>
      <RoleNote db={db} />
      <div className="pt-6">{children}</div>
    </div>
  );
};
