"use client";
import { useState } from "react";
import type { AiBuild, AiPlanView } from "../api/types";
import { useEditAiPlan } from "../api/use-ai-builds";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { BuildError } from "./build-error";
import { planOf } from "./build-text";
import { applyEdit, EDITABLE_TYPES, type PlanEdit } from "./plan-edits";

type Props = {
  build: AiBuild;
  workspace?: number;
  onSaved: (build: AiBuild) => void;
  onCancel: () => void;
};

/** The value of a type select: the type, or `reference:<table>` for a reference. */
const typeValue = (c: AiPlanView["tables"][number]["columns"][number]) => (c.type === "reference" ? `reference:${c.references}` : String(c.type));

/**
 * A planned build, editable before it is applied: rename or remove tables and columns, change a column's type
 * or a dropdown's options, add columns. Seed rows, references and joins follow each edit; Save sends the plan
 * to the server, which checks it as it checked the planner's (every problem listed, nothing saved).
 */
export const PlanEditor = ({ build, workspace, onSaved, onCancel }: Props) => {
  const [draft, setDraft] = useState<AiPlanView>(() => planOf(build));
  const [adding, setAdding] = useState<Record<string, string>>({});
  const save = useEditAiPlan();
  const edit = (e: PlanEdit) => setDraft((p) => applyEdit(p, e));

  return (
    <section aria-label="Edit plan" className="space-y-4 rounded-lg border border-indigo-200 bg-white p-4">
      <p className="text-sm text-slate-600">Rename, retype or remove what the plan holds; sample rows and joins follow. Nothing is created until you apply.</p>
      {draft.tables.map((t, index) => (
        <fieldset key={t.name} aria-label={`Edit table ${t.name}`} className="space-y-2 rounded-md border border-slate-200 p-3">
          <div className="flex flex-wrap items-center gap-2">
            <TextInput
              aria-label={`Name of table ${t.name}`}
              defaultValue={t.name}
              className="max-w-64 font-mono"
              onBlur={(e) => edit({ kind: "rename_table", table: t.name, to: e.target.value.trim() })}
            />
            <Button variant="secondary" onClick={() => edit({ kind: "remove_table", table: t.name })}>
              Remove table
            </Button>
          </div>
          <ul className="space-y-1.5">
            {t.columns.map((c) => (
              <li key={c.name} className="flex flex-wrap items-center gap-2">
                <TextInput
                  aria-label={`Name of ${t.name}.${c.name}`}
                  defaultValue={c.name}
                  className="w-44 font-mono"
                  onBlur={(e) => edit({ kind: "rename_column", table: t.name, column: c.name, to: e.target.value.trim() })}
                />
                <SelectInput
                  aria-label={`Type of ${t.name}.${c.name}`}
                  value={typeValue(c)}
                  className="w-48"
                  onChange={(e) => {
                    const [type, references] = e.target.value.split(":");
                    edit({ kind: "set_type", table: t.name, column: c.name, type, references });
                  }}
                >
                  {EDITABLE_TYPES.filter((type) => type !== "reference").map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                  {!EDITABLE_TYPES.includes(c.type as never) && <option value={String(c.type)}>{String(c.type)}</option>}
                  {/* A reference may point only at a table planned before this one. */}
                  {draft.tables
                    .filter((other, at) => at < index || (c.type === "reference" && c.references === other.name))
                    .map((other) => (
                      <option key={other.name} value={`reference:${other.name}`}>
                        reference to {other.name}
                      </option>
                    ))}
                </SelectInput>
                {c.type === "dropdown" && (
                  <TextInput
                    aria-label={`Options of ${t.name}.${c.name}`}
                    defaultValue={(c.options ?? []).join(", ")}
                    className="min-w-48 flex-1"
                    onBlur={(e) => edit({ kind: "set_options", table: t.name, column: c.name, options: e.target.value.split(",") })}
                  />
                )}
                <Button variant="secondary" aria-label={`Remove ${t.name}.${c.name}`} onClick={() => edit({ kind: "remove_column", table: t.name, column: c.name })}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              edit({ kind: "add_column", table: t.name, column: (adding[t.name] ?? "").trim() });
              setAdding((a) => ({ ...a, [t.name]: "" }));
            }}
          >
            <TextInput aria-label={`New column of ${t.name}`} placeholder="new_column" value={adding[t.name] ?? ""} onChange={(e) => setAdding((a) => ({ ...a, [t.name]: e.target.value }))} className="w-44 font-mono" />
            <Button type="submit" variant="secondary" disabled={!(adding[t.name] ?? "").trim()}>
              Add column
            </Button>
          </form>
        </fieldset>
      ))}
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
        <Button variant="primary" pending={save.isPending} onClick={() => save.mutate({ id: build.id, workspace, plan: draft as AiBuild["plan"] }, { onSuccess: onSaved })}>
          Save plan
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
        <div className="min-w-0 flex-1">
          <BuildError error={save.error} />
        </div>
      </div>
    </section>
  );
};
