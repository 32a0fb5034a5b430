"use client";
import { type FormEvent, useState } from "react";
import { type AuditFilter, useAuditLog } from "../api/use-audit";
import { Button } from "../ui/button";
import { Field, SelectInput, TextInput } from "../ui/field";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { ActivityTable } from "./activity-table";

/** The kinds of action the filter offers (an action prefix: `column.` is every column change). */
const KINDS = [
  ["signin.", "Sign-ins"],
  ["user_signin.", "App user sign-ins"],
  ["database.", "Databases"],
  ["table.", "Tables"],
  ["column.", "Columns"],
  ["index.", "Indexes"],
  ["join.", "Joins"],
  ["auth.", "Database auth"],
  ["policy.", "Row policies"],
  ["hooks.", "Hooks"],
  ["webhook.", "Webhooks"],
  ["key.", "API keys"],
  ["invite.", "Invites"],
  ["member.", "Members"],
  ["view.", "Saved views"],
  ["docs.", "API docs"],
  ["ai_build.", "AI builds"],
  ["account.", "Accounts"],
  ["plan.", "Plans"],
  ["credits.", "Credits"],
  ["settings.", "Settings"],
] as const;

type Props = { workspace?: number; database?: string };

/** Filters (database, who, what), the entries and "Load older": the workspace's page and a database's tab alike. */
export const ActivityLog = ({ workspace, database }: Props) => {
  const [filter, setFilter] = useState<AuditFilter>({});
  const log = useAuditLog({ ...filter, workspace, ...(database && { database }) });
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    setFilter({ database: text("database"), actor: text("actor"), action: text("action") });
  };
  const entries = log.data?.pages.flat() ?? [];
  return (
    <div className="space-y-4">
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3" aria-label="Filter activity">
        {!database && (
          <Field label="Database" htmlFor="audit-database" className="w-full sm:w-48">
            <TextInput id="audit-database" name="database" placeholder="instance name" defaultValue={filter.database} />
          </Field>
        )}
        <Field label="Who" htmlFor="audit-actor" className="w-full sm:w-56">
          <TextInput id="audit-actor" name="actor" placeholder="email or account id" defaultValue={filter.actor} />
        </Field>
        <Field label="What" htmlFor="audit-action" className="w-full sm:w-48">
          <SelectInput id="audit-action" name="action" defaultValue={filter.action ?? ""}>
            <option value="">Everything</option>
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectInput>
        </Field>
        <Button type="submit">Filter</Button>
      </form>
      {log.isLoading ? (
        <LoadingState label="Loading activity…" />
      ) : log.error ? (
        <ErrorState error={log.error} title="Could not load the activity" onRetry={() => log.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title="No activity">Changes and sign-ins show here as they happen{Object.values(filter).some(Boolean) ? "; none match these filters." : "."}</EmptyState>
      ) : (
        <>
          <ActivityTable entries={entries} showDatabase={!database} />
          {log.hasNextPage && (
            <div className="flex justify-center">
              <Button onClick={() => log.fetchNextPage()} pending={log.isFetchingNextPage}>
                Load older
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
};
