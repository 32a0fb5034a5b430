"use client";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { AiBuilderPanel } from "../ai/ai-builder-panel";
import { roleLabel } from "../api/can";
import type { DatabaseSummary } from "../api/types";
import { useAccount } from "../api/use-account";
import { useDatabases } from "../api/use-databases";
import { DatabaseIcon, PlusIcon } from "../icons";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { IntentLink } from "../ui/intent-link";
import { SelectInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

const TABS = [
  { scope: "mine", label: "My databases", href: "/databases" },
  { scope: "shared", label: "Shared with me", href: "/databases?scope=shared" },
] as const;

type Scope = (typeof TABS)[number]["scope"];

const NewDatabaseLink = ({ workspace }: { workspace?: string }) => (
  <Link
    href={workspace ? `/databases/new?workspace=${workspace}` : "/databases/new"}
    className="inline-flex h-9 items-center gap-1.5 rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-xs hover:bg-indigo-500"
  >
    <PlusIcon /> New database
  </Link>
);

/** The distinct people of a list, by id, in the order they first appear. */
const peopleOf = (list: DatabaseSummary[], pick: (db: DatabaseSummary) => DatabaseSummary["owner"]) => [
  ...new Map(list.map((db) => [pick(db).id, pick(db)])).values(),
];

const Person = ({ label, email }: { label: string; email: string }) => (
  <p className="truncate text-xs text-slate-600">
    {label} <span className="font-medium text-slate-800">{email}</span>
  </p>
);

const DatabaseCard = ({ db, me }: { db: DatabaseSummary; me?: number }) => {
  const shared = db.role !== "owner";
  const showCreator = shared || (me !== undefined && db.creator.id !== me);
  return (
    <IntentLink
      href={`/databases/${db.instance}/schema`}
      data-database={db.instance}
      className="block h-full rounded-lg border border-slate-200 bg-white p-4 shadow-xs transition hover:border-indigo-300 hover:shadow-sm"
    >
      <div className="flex items-center gap-2">
        <DatabaseIcon className="size-5 shrink-0 text-indigo-600" />
        <h2 className="min-w-0 flex-1 truncate font-medium text-slate-900">{db.name}</h2>
        {shared && <Badge tone={db.role === "viewer" ? "slate" : "indigo"}>{roleLabel(db.role)}</Badge>}
      </div>
      <p className="mt-1 font-mono text-xs text-slate-500">{db.api_base}</p>
      {showCreator && (
        <div className="mt-2 space-y-0.5">
          {shared && <Person label="Owner" email={db.owner.email} />}
          <Person label="Created by" email={db.creator.id === me ? "you" : db.creator.email} />
        </div>
      )}
      <p className="mt-3 text-sm text-slate-600">
        {db.table_count} {db.table_count === 1 ? "table" : "tables"} · created {formatDate(db.created_at)}
      </p>
    </IntentLink>
  );
};

/** "My databases" and "Shared with me" (`?scope=shared`), filtered by creator and workspace in the URL. */
export const DatabaseList = () => {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const scope: Scope = params.get("scope") === "shared" ? "shared" : "mine";
  const creator = params.get("creator") ?? "";
  const workspace = scope === "shared" ? (params.get("workspace") ?? "") : "";
  const me = useAccount().data?.id;
  // The whole list gives the filters their choices; the filtered one is what the API answers for them.
  const all = useDatabases({ scope });
  const databases = useDatabases({ scope, creator: creator || undefined, workspace: workspace || undefined });
  const filtering = creator !== "" || workspace !== "";
  const setFilter = (name: "creator" | "workspace", value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    router.replace(next.size ? `${pathname}?${next}` : pathname);
  };
  const clear = () => router.replace(scope === "shared" ? "/databases?scope=shared" : "/databases");
  const creators = peopleOf(all.data ?? [], (db) => db.creator);
  const owners = peopleOf(all.data ?? [], (db) => db.owner);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Databases"
        description="Each database has its own schema, REST API and live docs."
        actions={<NewDatabaseLink workspace={workspace || undefined} />}
      />
      {scope === "mine" && <AiBuilderPanel />}
      <nav className="flex gap-1 border-b border-slate-200" aria-label="Database lists">
        {TABS.map((tab) => (
          <Link
            key={tab.scope}
            href={tab.href}
            aria-current={tab.scope === scope ? "page" : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${
              tab.scope === scope ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
            }`}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {(all.data?.length ?? 0) > 0 && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" role="group" aria-label="Filters">
          <label htmlFor="filter-creator" className="text-slate-600">
            Created by
          </label>
          <SelectInput id="filter-creator" className="w-64" value={creator} onChange={(e) => setFilter("creator", e.target.value)}>
            <option value="">Anyone</option>
            {creators.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id === me ? `${p.email} (you)` : p.email}
              </option>
            ))}
          </SelectInput>
          {scope === "shared" && (
            <>
              <label htmlFor="filter-workspace" className="ml-3 text-slate-600">
                Workspace of
              </label>
              <SelectInput id="filter-workspace" className="w-64" value={workspace} onChange={(e) => setFilter("workspace", e.target.value)}>
                <option value="">Anyone</option>
                {owners.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.email}
                  </option>
                ))}
              </SelectInput>
            </>
          )}
          {filtering && (
            <Button size="sm" variant="ghost" onClick={clear}>
              Clear filters
            </Button>
          )}
        </div>
      )}
      {databases.isLoading ? (
        <LoadingState label="Loading databases…" />
      ) : databases.error ? (
        <ErrorState error={databases.error} title="Could not load the databases" onRetry={() => databases.refetch()} />
      ) : !databases.data?.length ? (
        filtering ? (
          <EmptyState title="No databases match these filters" action={<Button onClick={clear}>Clear filters</Button>} />
        ) : scope === "shared" ? (
          <EmptyState title="Nothing shared with you yet">
            When someone invites you to their workspace, its databases show here, with your role in it. Open the invite link you were sent to join.
          </EmptyState>
        ) : (
          <EmptyState title="No databases yet" action={<NewDatabaseLink />}>
            Create one empty, quick-create it with its tables and columns, or describe your app to the AI builder above. Its REST API and docs exist the moment it does.
          </EmptyState>
        )
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label={TABS.find((t) => t.scope === scope)!.label}>
          {databases.data.map((db) => (
            <li key={db.instance}>
              <DatabaseCard db={db} me={me} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
