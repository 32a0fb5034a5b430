"use client";
import { type FormEvent, useEffect, useState } from "react";
import { ApiRequestError } from "../api/api-error";
import { lockedUnless } from "../api/can";
import type { Table } from "../api/types";
import { POLICY_ACTIONS, type Policies, type PolicyAction, usePolicies, useSavePolicies } from "../api/use-db-auth";
import { Button } from "../ui/button";
import { Field, SelectInput, TextArea } from "../ui/field";
import { LockNote } from "../ui/lock-note";
import { ErrorState, FormError, LoadingState } from "../ui/states";
import { isReference } from "@/lib/schema/type-traits";
import { ownerCandidates, pickOwnerColumn, POLICY_PRESETS } from "./policy-presets";

const HELP: Record<PolicyAction, string> = {
  select: "Rows the user can list and read (others answer 404).",
  insert: "New rows must match (else 403, nothing written).",
  update: "Rows the user may change; the changed row must still match.",
  delete: "Rows the user may delete.",
};

/** The policy text with a marker under the character the parser stopped at. */
const Caret = ({ text, position }: { text: string; position: number }) => (
  <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-red-50 px-2 py-1 font-mono text-xs text-red-700" data-testid="policy-caret">
    {text}
    {"\n"}
    {" ".repeat(Math.max(0, position - 1))}^
  </pre>
);

const toDraft = (p: Policies) => Object.fromEntries(POLICY_ACTIONS.map((a) => [a, p[a] ?? ""])) as Record<PolicyAction, string>;

type Props = {
  instance: string;
  tables: Table[];
  /** The auth settings' users table: references to it are owner columns. */
  usersTable: string;
  /** Owner or admin; others read each table's policies, disabled. */
  canAdmin: boolean;
};

/** One table's four policies, starter presets, and the parser's errors shown inline with their position. */
export const PolicyEditor = ({ instance, tables, usersTable, canAdmin }: Props) => {
  const adminLock = lockedUnless(canAdmin, "admin");
  const [table, setTable] = useState(tables[0]?.name ?? "");
  const policies = usePolicies(instance, table);
  const save = useSavePolicies(instance, table);
  const [draft, setDraft] = useState<Record<PolicyAction, string>>(toDraft({ select: null, insert: null, update: null, delete: null }));
  const columns = tables.find((t) => t.name === table)?.columns ?? [];
  const candidates = ownerCandidates(columns, usersTable);
  const [owner, setOwner] = useState("");
  useEffect(() => {
    if (policies.data) setDraft(toDraft(policies.data));
  }, [policies.data]);
  useEffect(() => {
    setOwner(pickOwnerColumn(table, columns, usersTable));
    save.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table]);
  const problems = save.error instanceof ApiRequestError ? save.error.errors : [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(Object.fromEntries(POLICY_ACTIONS.map((a) => [a, draft[a].trim() === "" ? null : draft[a]])) as Policies);
  };
  if (tables.length === 0) return null;
  return (
    <form onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" aria-label="Row policies">
      <h2 className="text-sm font-semibold text-slate-900">Row Level Security policies</h2>
      <p className="mt-1 text-sm text-slate-600">
        Expressions over the table&apos;s columns, <code className="font-mono">auth.id</code> and <code className="font-mono">auth.&lt;claim&gt;</code>: comparisons{" "}
        <code className="font-mono">= != &gt; &gt;= &lt; &lt;= in (…)</code>, <code className="font-mono">and / or / not</code>, parentheses. Empty = denied to users;{" "}
        <code className="font-mono">true</code> = every row. Secret keys are never limited.
      </p>
      {!canAdmin && <LockNote level="admin">Pick a table to read its policies.</LockNote>}
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <Field label="Table" htmlFor="policy-table" className="w-56">
          <SelectInput id="policy-table" value={table} onChange={(e) => setTable(e.target.value)}>
            {tables.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Owner column (for presets)" htmlFor="policy-owner" className="w-72">
          <SelectInput id="policy-owner" value={owner} onChange={(e) => setOwner(e.target.value)} {...adminLock}>
            <option value="">None (add one: reference to {usersTable}, default auth.id)</option>
            {table === usersTable && <option value="id">id (the row is the user)</option>}
            {candidates.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({isReference(c) ? `reference to ${c.references}` : "filled with auth.id"})
              </option>
            ))}
          </SelectInput>
        </Field>
        <div className="flex flex-wrap gap-1.5">
          {POLICY_PRESETS.map((preset) => (
            <Button
              key={preset.id}
              size="sm"
              onClick={() => setDraft(toDraft(preset.make(owner)))}
              {...adminLock}
              disabled={adminLock.disabled || (preset.needsOwner && !owner)}
              title={preset.needsOwner && !owner ? "Pick the owner column first" : adminLock.title}
            >
              {preset.label}
            </Button>
          ))}
        </div>
      </div>
      {policies.isLoading ? (
        <LoadingState label="Loading policies…" />
      ) : policies.error ? (
        <ErrorState error={policies.error} onRetry={() => policies.refetch()} />
      ) : (
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          {POLICY_ACTIONS.map((action) => {
            const problem = problems.find((p) => p.field === action);
            return (
              <Field key={action} label={<span className="font-mono uppercase">{action}</span>} htmlFor={`policy-${action}`} hint={HELP[action]} error={problem?.message}>
                <TextArea
                  id={`policy-${action}`}
                  rows={2}
                  placeholder="denied to users"
                  value={draft[action]}
                  invalid={!!problem}
                  onChange={(e) => setDraft({ ...draft, [action]: e.target.value })}
                  {...adminLock}
                />
                {problem?.position !== undefined && <Caret text={draft[action]} position={problem.position} />}
              </Field>
            );
          })}
        </div>
      )}
      <div className="mt-4 flex items-center gap-2">
        <Button type="submit" variant="primary" pending={save.isPending} {...adminLock}>
          Save policies
        </Button>
        {save.isSuccess && <span className="text-sm text-emerald-700">Saved; the API enforces them now.</span>}
      </div>
      {problems.length === 0 && <div className="mt-3"><FormError error={save.error} /></div>}
    </form>
  );
};
