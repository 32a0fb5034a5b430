"use client";
import { type FormEvent, useEffect, useState } from "react";
import { ApiRequestError, type FieldError } from "../api/api-error";
import { HOOK_ACTIONS, type HookAction, type Hooks, type HookStep, useHooks, useSaveHooks } from "../api/use-hooks";
import { Button } from "../ui/button";
import { LockNote } from "../ui/lock-note";
import { ErrorState, FormError, LoadingState } from "../ui/states";
import { StepRow } from "./step-row";

const HELP: Record<HookAction, string> = {
  insert: "Before a row is created. `new` is the incoming row.",
  update: "Before a row changes. `new` is the patch merged onto the stored row, `old` the stored row.",
  delete: "Before a row is deleted. `old` is the stored row.",
};

// Steps carry a client key so React keeps each row's input (and focus) through reordering.
type Draft = Record<HookAction, { key: number; step: HookStep }[]>;
let nextKey = 0;
const toDraft = (hooks: Hooks): Draft =>
  Object.fromEntries(HOOK_ACTIONS.map((a) => [a, (hooks[a] ?? []).map((step) => ({ key: nextKey++, step }))])) as Draft;
const fromDraft = (draft: Draft): Hooks => Object.fromEntries(HOOK_ACTIONS.map((a) => [a, draft[a].map((s) => s.step)])) as Hooks;
const EMPTY: Hooks = { insert: [], update: [], delete: [] };

/** `insert[1].expr` → the problems of step 1 of insert, fields relative to the step. */
const stepProblems = (problems: FieldError[], action: HookAction, index: number) => {
  const prefix = `${action}[${index}]`;
  return problems.filter((p) => p.field === prefix || p.field.startsWith(`${prefix}.`)).map((p) => ({ ...p, field: p.field.slice(prefix.length + 1) }));
};

type Props = { instance: string; table: string; columns: string[]; canAdmin: boolean };

/** A table's pre hooks per action, as ordered steps; Save replaces them all (PUT), checked by the server. */
export const HookEditor = ({ instance, table, columns, canAdmin }: Props) => {
  const hooks = useHooks(instance, table);
  const save = useSaveHooks(instance, table);
  const [draft, setDraft] = useState<Draft>(toDraft(EMPTY));
  useEffect(() => {
    if (hooks.data) setDraft(toDraft(hooks.data));
  }, [hooks.data]);
  useEffect(() => {
    save.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table]);
  if (hooks.isLoading) return <LoadingState label="Loading hooks…" />;
  if (hooks.error) return <ErrorState error={hooks.error} title="Could not load the hooks" onRetry={() => hooks.refetch()} />;
  const problems = save.error instanceof ApiRequestError ? save.error.errors : [];
  const loose = problems.filter((p) => !/^(insert|update|delete)\[\d+\]/.test(p.field));
  const update = (action: HookAction, change: (steps: Draft[HookAction]) => Draft[HookAction]) => {
    if (save.isSuccess) save.reset();
    setDraft((d) => ({ ...d, [action]: change(d[action]) }));
  };
  const move = (action: HookAction, index: number, by: -1 | 1) =>
    update(action, (steps) => {
      const out = [...steps];
      [out[index], out[index + by]] = [out[index + by], out[index]];
      return out;
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(fromDraft(draft));
  };
  return (
    <form onSubmit={submit} aria-label="Pre hooks" className="space-y-4">
      {!canAdmin && <LockNote level="admin">You can read this table&apos;s hooks and try them; changing them is for the owner and admins.</LockNote>}
      {HOOK_ACTIONS.map((action) => (
        <section key={action} aria-label={`On ${action}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div>
              <h3 className="font-mono text-sm font-semibold text-slate-900 uppercase">{action}</h3>
              <p className="text-xs text-slate-500">{HELP[action]}</p>
            </div>
            {canAdmin && (
              <div className="flex gap-1.5">
                <Button size="sm" onClick={() => update(action, (s) => [...s, { key: nextKey++, step: { set: columns[0] ?? "", expr: "" } }])} disabled={action === "delete"} title={action === "delete" ? "A delete writes no row to set values on." : undefined}>
                  + Set a column
                </Button>
                <Button size="sm" onClick={() => update(action, (s) => [...s, { key: nextKey++, step: { assert: "", message: "" } }])}>
                  + Assert
                </Button>
              </div>
            )}
          </div>
          {draft[action].length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">No steps: {action}s go straight to the table.</p>
          ) : (
            <ol className="mt-3 space-y-2">
              {draft[action].map(({ key, step }, index) => (
                <StepRow
                  key={key}
                  action={action}
                  index={index}
                  count={draft[action].length}
                  step={step}
                  columns={columns}
                  problems={stepProblems(problems, action, index)}
                  disabled={!canAdmin}
                  onChange={(next) => update(action, (s) => s.map((x, i) => (i === index ? { key: x.key, step: next } : x)))}
                  onMove={(by) => move(action, index, by)}
                  onRemove={() => update(action, (s) => s.filter((_, i) => i !== index))}
                />
              ))}
            </ol>
          )}
        </section>
      ))}
      {canAdmin && (
        <div className="flex items-center gap-2">
          <Button type="submit" variant="primary" pending={save.isPending}>
            Save hooks
          </Button>
          {save.isSuccess && <span className="text-sm text-emerald-700">Saved; every {table} write runs them now.</span>}
          {problems.length > 0 && <span role="alert" className="text-sm text-red-700">Not saved: fix the marked steps.</span>}
        </div>
      )}
      {loose.map((p) => (
        <p key={p.field + p.code} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          <code className="font-mono">{p.field}</code>: {p.message}
        </p>
      ))}
      {problems.length === 0 && <FormError error={save.error} />}
    </form>
  );
};
