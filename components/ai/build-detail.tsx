"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import type { AiBuild } from "../api/types";
import { useAiBuild, useApplyAiBuild, workspaceOf } from "../api/use-ai-builds";
import { useDatabase } from "../api/use-databases";
import { Button } from "../ui/button";
import { ProgressBar } from "../ui/progress-bar";
import { ErrorState, LoadingState } from "../ui/states";
import { creditText, ModelBadge, StatusBadge } from "./build-badges";
import { BuildError } from "./build-error";
import { formatWhen, planOf } from "./build-text";
import { PlanPreview } from "./plan-preview";
import { StepList } from "./step-list";

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <div>
    <dt className="text-xs text-slate-500">{label}</dt>
    <dd className="mt-0.5 text-sm text-slate-800">{children}</dd>
  </div>
);

const DatabaseLink = ({ instance }: { instance: string }) => (
  <Link href={`/databases/${instance}/schema`} className="font-mono text-xs text-indigo-700 hover:underline">
    {instance}
  </Link>
);

/**
 * Applies a planned build from its page, then opens the database it created or extended. A build that extends
 * a database in someone else's workspace is applied there (the database says whose it is).
 */
const ApplyBar = ({ build }: { build: AiBuild }) => {
  const router = useRouter();
  const apply = useApplyAiBuild();
  const extended = useDatabase(build.database ?? "", { enabled: build.database !== null });
  const workspace = extended.data && workspaceOf(extended.data);
  if (apply.isPending) return <ProgressBar label="Applying the plan…" />;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="primary" disabled={extended.isLoading} onClick={() => apply.mutate({ id: build.id, workspace }, { onSuccess: (db) => router.push(`/databases/${db.instance}/schema`) })}>
        Apply
      </Button>
      <p className="text-sm text-slate-600">{build.database ? `Adds the plan to ${build.database}.` : `Creates the database “${planOf(build).name}”.`}</p>
      <div className="w-full">
        <BuildError error={apply.error} />
      </div>
    </div>
  );
};

/** One build: its facts, every tool step of the agent, the plan, and Apply while it is planned. */
export const BuildDetail = ({ id }: { id: number }) => {
  const query = useAiBuild(id);
  if (query.isLoading) return <LoadingState label="Loading the build…" />;
  if (query.error) return <ErrorState error={query.error} title={`Could not load AI build ${id}`} onRetry={() => query.refetch()} />;
  const build = query.data!;
  // Not yet applied, a build with a database extends it; once applied, the database is the one it created or extended.
  const extending = build.database && build.status !== "applied" ? build.database : undefined;
  return (
    <div className="space-y-6">
      <div>
        <p className="text-xs text-slate-500">
          <Link href="/ai" className="hover:text-slate-800">
            AI builds
          </Link>{" "}
          / #{build.id}
        </p>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <h1 className="text-xl font-semibold text-slate-900">“{build.prompt}”</h1>
          <StatusBadge status={build.status} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xs sm:grid-cols-3 lg:grid-cols-5">
        <Fact label="Planner">
          <ModelBadge build={build} />
        </Fact>
        <Fact label="Kind">{build.kind === "join" ? "Join proposal" : "Schema"}</Fact>
        <Fact label="Cost">{creditText(build)}</Fact>
        <Fact label="Created">{formatWhen(build.created_at)}</Fact>
        <Fact label="Updated">{formatWhen(build.updated_at)}</Fact>
        <Fact label="Database">{build.database ? <DatabaseLink instance={build.database} /> : <span className="text-slate-400">not created yet</span>}</Fact>
      </dl>
      {build.error && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {build.error}
        </p>
      )}
      {build.status === "planned" && <ApplyBar build={build} />}
      <section aria-label="Agent steps" className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Steps</h2>
        {build.steps.length ? (
          <StepList steps={build.steps} detailed />
        ) : (
          <p className="text-sm text-slate-500">
            {build.offline ? "The offline planner reads the sentence in one go: no tool steps." : "The model made no tool calls."}
          </p>
        )}
      </section>
      <section aria-label="Plan" className="space-y-2">
        <h2 className="text-base font-semibold text-slate-900">Plan</h2>
        {build.plan ? (
          <PlanPreview build={build} extending={extending} label={build.status === "applied" ? `Applied to ${build.database}` : undefined} />
        ) : (
          <p className="text-sm text-slate-500">No plan: the build {build.status === "running" ? "is still running" : "failed before one was valid"}.</p>
        )}
      </section>
    </div>
  );
};
