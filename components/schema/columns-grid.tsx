"use client";
import { useState } from "react";
import type { Column, Table } from "../api/types";
import { useDropColumn } from "../api/use-schema-mutations";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { isReference, isSecret } from "@/lib/schema/type-traits";

const AUTOMATIC = [
  { name: "id", mysql: "BIGINT UNSIGNED AUTO_INCREMENT", note: "auto-increment" },
  { name: "created_at", mysql: "DATETIME(3)", note: "on insert" },
  { name: "updated_at", mysql: "DATETIME(3)", note: "on every write" },
];

/** NOT NULL, UNIQUE, INDEX, PRIMARY KEY as small tags; a plain nullable column shows "nullable". */
const Constraints = ({ nullable, unique, index = false, primary = false }: { nullable: boolean; unique: boolean; index?: boolean; primary?: boolean }) => (
  <span className="flex flex-wrap gap-1">
    {primary && <Badge tone="indigo">PRIMARY KEY</Badge>}
    {!nullable && !primary && <Badge tone="amber">NOT NULL</Badge>}
    {unique && !primary && <Badge tone="green">UNIQUE</Badge>}
    {index && !unique && <Badge>INDEX</Badge>}
    {nullable && !unique && <span className="text-xs text-slate-600">nullable</span>}
  </span>
);

const typeDetail = (c: Column) =>
  c.type === "dropdown" ? `${c.options?.length} options` : isReference(c) ? `→ ${c.references}.id` : isSecret(c) ? "bcrypt hash" : "";

const defaultText = (c: Column) => (c.default === undefined ? "" : typeof c.default === "string" ? c.default : JSON.stringify(c.default));

const AutomaticRow = ({ name, mysql, note }: (typeof AUTOMATIC)[number]) => (
  <tr className="bg-slate-50/60 text-slate-500">
    <td className="px-3 py-2 font-mono text-sm">{name}</td>
    <td className="px-3 py-2 whitespace-nowrap">
      <Badge>automatic</Badge> <span className="text-xs">{note}</span>
    </td>
    <td className="max-w-48 px-3 py-2 font-mono text-xs break-words">{mysql}</td>
    <td className="px-3 py-2">
      <Constraints nullable={false} unique={false} primary={name === "id"} />
    </td>
    <td className="px-3 py-2" />
    <td className="px-3 py-2" />
  </tr>
);

/** Without `onEdit` the grid is read-only: no edit or delete (a viewer's role). */
type Props = { instance: string; table: Table; onEdit?: (c: Column) => void };

/** The columns of one table: automatic ones first and last, the user's in between with edit and delete. */
export const ColumnsGrid = ({ instance, table, onEdit }: Props) => {
  const drop = useDropColumn(instance, table.name);
  const [dropping, setDropping] = useState<string | null>(null);
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-left" aria-label={`Columns of ${table.name}`}>
        <thead className="bg-slate-50 text-xs font-medium text-slate-600">
          <tr>
            <th className="px-3 py-2">Column</th>
            <th className="px-3 py-2">Type</th>
            <th className="px-3 py-2">MySQL</th>
            <th className="px-3 py-2">Constraints</th>
            <th className="px-3 py-2">Default</th>
            <th className="px-3 py-2 sr-only">Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-sm">
          <AutomaticRow {...AUTOMATIC[0]} />
          {table.columns.map((c) => (
            <tr key={c.name} data-column={c.name}>
              <td className="px-3 py-2 font-mono font-medium text-slate-900">{c.name}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <Badge tone={isReference(c) ? "indigo" : isSecret(c) ? "amber" : c.type === "dropdown" ? "green" : "slate"}>{c.type}</Badge>{" "}
                <span className="text-xs text-slate-500">{typeDetail(c)}</span>
              </td>
              <td className="max-w-48 px-3 py-2 font-mono text-xs break-words text-slate-600">{c.mysql_type}</td>
              <td className="px-3 py-2">
                <Constraints nullable={c.nullable} unique={c.unique} index={c.index} />
              </td>
              <td className="max-w-40 truncate px-3 py-2 font-mono text-xs text-slate-700">{defaultText(c)}</td>
              <td className="px-2 py-2 text-right whitespace-nowrap">
                {onEdit && (
                  <>
                    <Button size="sm" variant="ghost" onClick={() => onEdit(c)} aria-label={`Edit column ${c.name}`}>
                      Edit
                    </Button>
                    <Button size="sm" variant="ghost" className="text-red-600 hover:text-red-700" onClick={() => setDropping(c.name)} aria-label={`Delete column ${c.name}`}>
                      Delete
                    </Button>
                  </>
                )}
              </td>
            </tr>
          ))}
          <AutomaticRow {...AUTOMATIC[1]} />
          <AutomaticRow {...AUTOMATIC[2]} />
        </tbody>
      </table>
      <ConfirmDialog
        open={dropping !== null}
        onClose={() => {
          setDropping(null);
          drop.reset();
        }}
        title={`Delete column ${table.name}.${dropping}?`}
        consequences={
          <>
            <p>Its value in every row is deleted for good.</p>
            <p>The API stops returning it at once; apps that still send it get a 422, and filters on it are refused.</p>
          </>
        }
        confirmLabel="Delete column"
        pending={drop.isPending}
        error={drop.error}
        onConfirm={() => drop.mutate(dropping!, { onSuccess: () => setDropping(null) })}
      />
    </div>
  );
};
