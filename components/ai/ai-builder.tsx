"use client";
import { type FormEvent, useState } from "react";
import type { AiBuild, Database } from "../api/types";
import { useApplyAiBuild, useCreateAiBuild, useRunningBuild } from "../api/use-ai-builds";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { ProgressBar } from "../ui/progress-bar";
import { BuildError } from "./build-error";
import { BuildProgress } from "./build-progress";
import { OfflineNotice } from "./offline-notice";
import { PlanEditor } from "./plan-editor";
import { PlanPreview } from "./plan-preview";

type Props = {
  /** The database to extend (only additions are planned), with its owner's id when it is not yours; omitted: a new database. */
  database?: { instance: string; name: string; workspace?: number };
  /** After Apply: the database the plan created or extended. */
  onApplied: (db: Database, build: AiBuild) => void;
};

/**
 * A sentence → a plan → Apply or Discard. While the agent works (the POST is in flight) the running build is
 * polled to show each tool step; then the plan is previewed, and nothing is created until Apply.
 */
export const AiBuilder = ({ database, onApplied }: Props) => {
  const [prompt, setPrompt] = useState("");
  const create = useCreateAiBuild();
  const apply = useApplyAiBuild();
  const running = useRunningBuild(create.isPending ? create.variables : undefined);
  // The build as last saved: the planner's, or the builder's edits of it.
  const [edited, setEdited] = useState<AiBuild>();
  const [editing, setEditing] = useState(false);
  const build = edited?.id === create.data?.id ? edited : create.data;
  const extending = database !== undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply.reset();
    setEditing(false);
    create.mutate({ prompt: prompt.trim(), ...(database ? { database: database.instance, workspace: database.workspace } : {}) });
  };
  const discard = () => {
    create.reset();
    apply.reset();
    setEditing(false);
  };

  return (
    <div className="space-y-4">
      <OfflineNotice />
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
        <Field
          className="min-w-72 flex-1"
          label={extending ? "Describe what to add in a sentence" : "Describe your app in a sentence"}
          htmlFor={extending ? "ai-extend-prompt" : "ai-prompt"}
        >
          <TextInput
            id={extending ? "ai-extend-prompt" : "ai-prompt"}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            placeholder={extending ? "e.g. Add authors and their posts with a title" : "e.g. A shop: customers, products with a price, and orders of customers"}
            maxLength={2000}
            disabled={create.isPending}
          />
        </Field>
        <Button type="submit" variant="primary" pending={create.isPending} disabled={prompt.trim().length < 3 || apply.isPending}>
          {create.isPending ? "Generating…" : "Generate"}
        </Button>
      </form>

      {create.isPending && <BuildProgress running={running} />}
      {create.error && <BuildError error={create.error} />}
      {build && editing && (
        <PlanEditor
          build={build}
          workspace={database?.workspace}
          onSaved={(saved) => {
            setEdited(saved);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      )}
      {build && !editing && (
        <PlanPreview
          build={build}
          extending={database?.name}
          actions={
            apply.isPending ? (
              <div className="w-full">
                <ProgressBar label={extending ? `Adding to “${database.name}”…` : `Creating “${build.plan?.name}” with its tables, join and rows…`} />
              </div>
            ) : (
              <>
                <Button variant="primary" onClick={() => apply.mutate({ id: build.id, workspace: database?.workspace }, { onSuccess: (db) => onApplied(db, build) })}>
                  {extending ? "Apply additions" : "Apply"}
                </Button>
                <Button onClick={() => setEditing(true)}>Edit plan</Button>
                <Button onClick={discard} title="Nothing is created; the plan stays in AI builds.">
                  Discard
                </Button>
                <div className="min-w-0 flex-1">
                  <BuildError error={apply.error} />
                </div>
              </>
            )
          }
        />
      )}
    </div>
  );
};
