"use client";
import Link from "next/link";
import { useDatabases } from "../api/use-databases";
import { DatabaseIcon, PlusIcon } from "../icons";
import { PageHeader } from "../ui/page-header";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";

const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

const NewDatabaseLink = () => (
  <Link href="/databases/new" className="inline-flex h-9 items-center gap-1.5 rounded-md bg-indigo-600 px-3.5 text-sm font-medium text-white shadow-xs hover:bg-indigo-500">
    <PlusIcon /> New database
  </Link>
);

/** "My databases": one card per database, linking to its schema. */
export const DatabaseList = () => {
  const databases = useDatabases();
  return (
    <div className="space-y-6">
      <PageHeader title="My databases" description="Each database has its own schema, REST API and live docs." actions={<NewDatabaseLink />} />
      {databases.isLoading ? (
        <LoadingState label="Loading your databases…" />
      ) : databases.error ? (
        <ErrorState error={databases.error} title="Could not load your databases" onRetry={() => databases.refetch()} />
      ) : !databases.data?.length ? (
        <EmptyState title="No databases yet" action={<NewDatabaseLink />}>
          Create one empty, or quick-create it with its tables and columns. Its REST API and docs exist the moment it does.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {databases.data.map((db) => (
            <li key={db.instance}>
              <Link
                href={`/databases/${db.instance}/schema`}
                className="block rounded-lg border border-slate-200 bg-white p-4 shadow-xs transition hover:border-indigo-300 hover:shadow-sm"
              >
                <div className="flex items-center gap-2">
                  <DatabaseIcon className="size-5 text-indigo-600" />
                  <h2 className="truncate font-medium text-slate-900">{db.name}</h2>
                </div>
                <p className="mt-1 font-mono text-xs text-slate-500">{db.api_base}</p>
                <p className="mt-3 text-sm text-slate-600">
                  {db.table_count} {db.table_count === 1 ? "table" : "tables"} · created {formatDate(db.created_at)}
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
