import type { ReactNode } from "react";
import type { AiBuild } from "../api/types";
import { creditText, ModelBadge } from "./build-badges";
import { planOf, plural } from "./build-text";
import { PlanJoinCard } from "./plan-join";
import { PlanTableCard, SeedRows } from "./plan-tables";

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <section aria-label={title} className="space-y-2">
    <h4 className="text-sm font-semibold text-slate-800">{title}</h4>
    {children}
  </section>
);

/**
 * What a build would create, before anything is: the database's name (or the database it extends), the
 * summary, each table with its columns, the joins and a few seed rows per table, who planned it and its cost.
 * Extending, everything is labelled as an addition.
 */
type Props = {
  build: AiBuild;
  /** The name of the database the plan adds to: everything is labelled as an addition. */
  extending?: string;
  /** Replaces the "New database" / "Additions to …" line (e.g. a build already applied). */
  label?: string;
  actions?: ReactNode;
};

export const PlanPreview = ({ build, extending, label, actions }: Props) => {
  const plan = planOf(build);
  const added = extending !== undefined;
  const seeded = plan.tables.filter((t) => plan.seed[t.name]?.length);
  const rows = seeded.reduce((n, t) => n + plan.seed[t.name].length, 0);
  return (
    <section aria-label="Plan preview" className="space-y-5 rounded-lg border border-indigo-200 bg-indigo-50/30 p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-xs text-slate-500">{label ?? (added ? `Additions to ${extending}` : "New database")}</p>
          {!added && <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>}
          <p className="mt-1 text-sm text-slate-700">
            {added ? "Adds " : ""}
            {plural(plan.tables.length, added ? "new table" : "table")}, {plural(plan.joins.length, added ? "new join" : "join")} and{" "}
            {plural(rows, added ? "new row" : "sample row")}.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
          <ModelBadge build={build} />
          <span aria-label="Cost">{creditText(build)}</span>
        </div>
      </div>
      {build.summary && <p className="rounded-md bg-white px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">{build.summary}</p>}
      {plan.tables.length > 0 && (
        <Section title={added ? "Tables to add" : "Tables"}>
          <div className="grid gap-3 lg:grid-cols-2">
            {plan.tables.map((t) => (
              <PlanTableCard key={t.name} table={t} added={added} />
            ))}
          </div>
        </Section>
      )}
      {plan.joins.length > 0 && (
        <Section title={added ? "Joins to add" : "Joins"}>
          <div className={`grid gap-3 ${plan.joins.length > 1 ? "lg:grid-cols-2" : ""}`}>
            {plan.joins.map((j) => (
              <PlanJoinCard key={j.name} join={j} added={added} />
            ))}
          </div>
        </Section>
      )}
      {seeded.length > 0 && (
        <Section title={added ? "Rows to add" : "Sample rows"}>
          <div className="space-y-3">
            {seeded.map((t) => (
              <SeedRows key={t.name} table={t} rows={plan.seed[t.name]} />
            ))}
          </div>
        </Section>
      )}
      {actions && <div className="flex flex-wrap items-center gap-3 border-t border-indigo-100 pt-4">{actions}</div>}
    </section>
  );
};
