"use client";
import { type FormEvent, useState } from "react";
import { BuildError } from "../ai/build-error";
import { creditText, ModelBadge } from "../ai/build-badges";
import { BuildProgress } from "../ai/build-progress";
import { planOf } from "../ai/build-text";
import { PlanJoinCard } from "../ai/plan-join";
import { useApplyAiBuild, useCreateAiBuild, useRunningBuild, workspaceOf } from "../api/use-ai-builds";
import { useDatabase } from "../api/use-databases";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { PreviewTable } from "./preview-table";
import { useJoinPreview } from "./use-join-preview";

/** AI mode: a sentence → one proposed join over this database's tables, previewed with its first rows; Save applies it. */
export const AiJoin = ({ instance }: { instance: string }) => {
  const [prompt, setPrompt] = useState("");
  const [saved, setSaved] = useState<string | null>(null);
  const db = useDatabase(instance).data;
  const workspace = db && workspaceOf(db);
  const create = useCreateAiBuild();
  const apply = useApplyAiBuild();
  const running = useRunningBuild(create.isPending ? create.variables : undefined);
  const build = create.data;
  const join = build ? planOf(build).joins[0] : undefined;
  const preview = useJoinPreview(instance, join && { base: join.base, joins: join.joins, columns: join.columns });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    apply.reset();
    create.mutate({ prompt: prompt.trim(), database: instance, kind: "join", workspace });
  };
  const save = () =>
    build &&
    join &&
    apply.mutate(
      { id: build.id, workspace },
      {
        onSuccess: () => {
          setSaved(join.name);
          create.reset();
        },
      },
    );

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
        <Field
          className="min-w-72 flex-1"
          label="Describe the join in a sentence"
          htmlFor="ai-join-prompt"
          hint="The AI picks the tables, the key pairs and the output columns from this database's schema."
        >
          <TextInput
            id="ai-join-prompt"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            placeholder="e.g. Each order with its customer's name"
            maxLength={2000}
            disabled={create.isPending}
          />
        </Field>
        <Button type="submit" variant="primary" pending={create.isPending} disabled={prompt.trim().length < 3 || apply.isPending} className="mb-5">
          {create.isPending ? "Proposing…" : "Propose join"}
        </Button>
      </form>
      {create.isPending && <BuildProgress running={running} />}
      {create.error && <BuildError error={create.error} />}
      {build && join && (
        <section aria-label="Proposed join" className="space-y-3">
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
            <h3 className="mr-auto text-sm font-semibold text-slate-800">Proposal</h3>
            <ModelBadge build={build} />
            <span>{creditText(build)}</span>
          </div>
          {build.summary && <p className="text-sm text-slate-700">{build.summary}</p>}
          <PlanJoinCard join={join} path={`/v1/${instance}/${join.name}`} />
          <section aria-label="Preview" className="space-y-2">
            <h4 className="text-sm font-semibold text-slate-800">Preview (first rows)</h4>
            <PreviewTable rows={preview.rows} error={preview.error} pending={preview.pending} />
          </section>
          <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
            <Button variant="primary" onClick={save} pending={apply.isPending}>
              Save join
            </Button>
            <Button onClick={() => create.reset()} disabled={apply.isPending}>
              Discard
            </Button>
          </div>
          <BuildError error={apply.error} />
        </section>
      )}
      {saved && (
        <p role="status" className="text-sm text-emerald-700">
          Saved: <code className="font-mono">GET /v1/{instance}/{saved}</code>
        </p>
      )}
    </div>
  );
};
