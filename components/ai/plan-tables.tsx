import type { AiPlanView, ColumnInput } from "../api/types";
import { TableIcon } from "../icons";
import { Badge } from "../ui/badge";
import { plural, typeText, valueText } from "./build-text";
import { isReference } from "@/lib/schema/type-traits";

type PlanTable = AiPlanView["tables"][number];

const TYPE_TONE = { reference: "indigo", dropdown: "green", password: "amber" } as const;

const PlanColumn = ({ column: c }: { column: ColumnInput }) => (
  <li data-column={c.name} className="px-3 py-1.5 text-sm">
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="font-mono text-slate-900">{c.name}</span>
      <Badge tone={TYPE_TONE[c.type as keyof typeof TYPE_TONE] ?? "slate"}>{typeText(c)}</Badge>
      {isReference(c) && <span className="text-xs text-indigo-700">→ {c.references}.id</span>}
      {c.nullable === false && <span className="text-xs text-amber-700">required</span>}
      {c.unique && <span className="text-xs text-emerald-700">unique</span>}
      {c.default !== undefined && <span className="text-xs text-slate-500">default {valueText(c.default)}</span>}
    </div>
    {c.type === "dropdown" && c.options && (
      <ul className="mt-1 flex flex-wrap gap-1" aria-label={`Options of ${c.name}`}>
        {c.options.map((o) => (
          <li key={o} className="rounded-full bg-emerald-50 px-2 py-0.5 text-[11px] text-emerald-800 ring-1 ring-emerald-200 ring-inset">
            {o}
          </li>
        ))}
      </ul>
    )}
  </li>
);

/** A planned table and its columns: type and size, dropdown options, reference targets, constraints. */
export const PlanTableCard = ({ table, added }: { table: PlanTable; added: boolean }) => (
  <article aria-label={`Planned table ${table.name}`} className="rounded-md border border-slate-200 bg-white">
    <div className="flex items-center gap-2 border-b border-slate-100 px-3 py-2">
      <TableIcon className="size-4 shrink-0 text-slate-400" />
      <span className="font-mono text-sm font-semibold text-slate-900">{table.name}</span>
      {added && <Badge tone="green">new table</Badge>}
      <span className="ml-auto text-xs text-slate-500">{plural(table.columns.length, "column")} + id, timestamps</span>
    </div>
    <ul className="divide-y divide-slate-50">
      {table.columns.map((c) => (
        <PlanColumn key={c.name} column={c} />
      ))}
    </ul>
  </article>
);

const SHOWN_ROWS = 3;

/** The first few seed rows of one table, its columns in plan order (references as the seed id they point at). */
export const SeedRows = ({ table, rows }: { table: PlanTable; rows: Record<string, unknown>[] }) => {
  const names = table.columns.map((c) => c.name).filter((n) => rows.some((r) => n in r));
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-600">
        <span className="font-mono font-medium text-slate-800">{table.name}</span> · {plural(rows.length, "row")}
        {rows.length > SHOWN_ROWS && `, the first ${SHOWN_ROWS} shown`}
      </p>
      <div tabIndex={0} role="region" aria-label={`Seed rows of ${table.name}, scrollable`} className="relative overflow-x-auto rounded-md border border-slate-200 bg-white">
        <table className="min-w-full text-left text-xs" aria-label={`Seed rows of ${table.name}`}>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              {names.map((n) => (
                <th key={n} className="px-2 py-1.5 font-mono font-medium whitespace-nowrap">
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, SHOWN_ROWS).map((row, i) => (
              <tr key={i} className="border-t border-slate-100">
                {names.map((n) => (
                  <td key={n} className={`max-w-56 truncate px-2 py-1.5 ${row[n] === null || row[n] === undefined ? "text-slate-400 italic" : "text-slate-800"}`}>
                    {valueText(row[n])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
};
