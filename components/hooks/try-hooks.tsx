"use client";
import { type FormEvent, useEffect, useState } from "react";
import type { Column } from "../api/types";
import { HOOK_ACTIONS, type HookAction, useHooks, useTryHooks } from "../api/use-hooks";
import { Button } from "../ui/button";
import { Field, SelectInput, TextArea } from "../ui/field";
import { FormError } from "../ui/states";
import { sampleRow } from "./sample-row";
import { formatDuration, StatusBadge, StepOutcomes } from "./step-outcomes";

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** Parses a JSON object field; a message instead when it is not one. */
const parseObject = (text: string, label: string): Record<string, unknown> | string => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : `${label} must be a JSON object.`;
  } catch (e) {
    return `${label} is not valid JSON: ${(e as Error).message}`;
  }
};

type Props = { instance: string; table: string; columns: Column[] };

/** Runs the saved hooks of one action on a sample row (POST …/hooks/try): nothing is written or logged. */
export const TryHooks = ({ instance, table, columns }: Props) => {
  const hooks = useHooks(instance, table);
  const run = useTryHooks(instance, table);
  const [action, setAction] = useState<HookAction>("insert");
  const [row, setRow] = useState("");
  const [old, setOld] = useState("");
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    const sample = pretty(sampleRow(columns));
    setRow(sample);
    setOld(sample);
    setProblem(undefined);
    run.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [table]);
  const needsOld = action !== "insert";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsedRow = parseObject(row, "The row");
    const parsedOld = needsOld ? parseObject(old, "The stored row") : undefined;
    const bad = [parsedRow, parsedOld].find((v) => typeof v === "string");
    setProblem(bad as string | undefined);
    if (bad) return;
    run.mutate({ action, row: parsedRow as Record<string, unknown>, ...(needsOld ? { old: parsedOld as Record<string, unknown> } : {}) });
  };
  const result = run.data;
  return (
    <form onSubmit={submit} aria-label="Try on a sample row" className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <h3 className="text-sm font-semibold text-slate-900">Try on a sample row</h3>
      <p className="mt-1 text-xs text-slate-500">Runs the saved hooks (save first) on this row. Nothing is written and nothing is logged.</p>
      <div className="mt-3 grid gap-3">
        <Field label="Action" htmlFor="try-action" className="w-48">
          <SelectInput id="try-action" value={action} onChange={(e) => setAction(e.target.value as HookAction)}>
            {HOOK_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </SelectInput>
        </Field>
        <Field label={action === "delete" ? "Row (new, unused on delete)" : "Row (new)"} htmlFor="try-row">
          <TextArea id="try-row" rows={8} value={row} onChange={(e) => setRow(e.target.value)} />
        </Field>
        {needsOld && (
          <Field label="Stored row (old)" htmlFor="try-old">
            <TextArea id="try-old" rows={8} value={old} onChange={(e) => setOld(e.target.value)} />
          </Field>
        )}
      </div>
      <div className="mt-3 flex items-center gap-2">
        <Button type="submit" pending={run.isPending}>
          Run hooks
        </Button>
      </div>
      {problem && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <div className="mt-3">
        <FormError error={run.error} />
      </div>
      {result && (
        <div aria-label="Try result" className="mt-4 space-y-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge status={result.status} />
            <span className="text-slate-500">{formatDuration(result.duration_ms)}</span>
            {result.message && <span className="text-slate-700">{result.message}</span>}
          </div>
          <StepOutcomes outcomes={result.steps} status={result.status} steps={hooks.data?.[action]} />
          <div>
            <p className="mb-1 text-xs font-medium text-slate-700">Resulting row</p>
            <pre aria-label="Resulting row" tabIndex={0} className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
              {pretty(result.row)}
            </pre>
          </div>
        </div>
      )}
    </form>
  );
};
