"use client";
import { useEffect, useId, useState } from "react";
import type { Table } from "../api/types";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { type Filter, operatorsFor, paramName, type QueryColumn } from "./build-query";
import { displayColumnOf, type ReadRows } from "./reference-display";
import { ReferencePicker } from "./reference-picker";
import { isReference } from "@/lib/schema/type-traits";

/** What a reference filter needs to search the referenced table: the schema's tables and a key-bearing read. */
export type FilterReferences = { tables: Table[]; read: ReadRows };

type Props = { filter: Filter; columns: QueryColumn[]; error?: string; references?: FilterReferences; onChange: (f: Filter) => void; onRemove: () => void };

type ReferenceValueProps = { filter: Filter; column: QueryColumn; references: FilterReferences; invalid: boolean; onChange: (v: string) => void };

/** `=` and `≠` on a reference column: the record form's search picker; the filter still sends the chosen id. */
const ReferenceValue = ({ filter, column, references, invalid, onChange }: ReferenceValueProps) => {
  const id = useId();
  const target = references.tables.find((t) => t.name === column.references);
  const [known, setKnown] = useState<{ id: string; text: string } | null>(null);
  const [fetched, setFetched] = useState(0);
  const [pending, setPending] = useState(false);
  const label = known?.id === filter.value ? known.text : undefined;
  const { read } = references;
  // A filter read back from the URL or a saved view holds only the id: name its row once (the picker then
  // starts again from that name, which is why `fetched` keys it).
  useEffect(() => {
    if (!target || !/^\d{1,15}$/.test(filter.value) || label !== undefined) return;
    let live = true;
    const display = displayColumnOf(target);
    read(target.name, `id=${filter.value}&_limit=1`).then(
      ([row]) => {
        if (!live || !row) return;
        setKnown({ id: filter.value, text: row[display] == null ? `#${row.id}` : String(row[display]) });
        setFetched((n) => n + 1);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [target, filter.value, label, read]);
  return (
    <div className="w-56">
      <label htmlFor={id} className="sr-only">
        Value for {paramName(filter)}
      </label>
      <ReferencePicker
        key={fetched}
        id={id}
        target={target}
        value={filter.value}
        label={label}
        invalid={invalid}
        describedBy={pending ? `${id}-pending` : undefined}
        read={read}
        onChange={(value, text) => {
          if (text) setKnown({ id: value, text });
          onChange(value);
        }}
        onPending={(text) => setPending(text !== null)}
      />
      {pending && (
        <p id={`${id}-pending`} className="mt-1 text-xs text-slate-600">
          Choose a row from the list; the filter keeps its last choice until then.
        </p>
      )}
    </div>
  );
};

/** The value input fits the operator and column: true/false for `_null` and booleans, the options of a dropdown. */
const ValueInput = ({ filter, column, invalid, onChange }: { filter: Filter; column?: QueryColumn; invalid: boolean; onChange: (v: string) => void }) => {
  const choices = filter.op === "null" || column?.type === "boolean" ? ["true", "false"] : column?.type === "dropdown" && (filter.op === "eq" || filter.op === "ne") ? column.options : undefined;
  const label = `Value for ${paramName(filter)}`;
  if (choices) {
    return (
      <SelectInput aria-label={label} value={filter.value} onChange={(e) => onChange(e.target.value)} invalid={invalid} className="w-44">
        <option value="">Choose…</option>
        {choices.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </SelectInput>
    );
  }
  return <TextInput aria-label={label} value={filter.value} onChange={(e) => onChange(e.target.value)} invalid={invalid} className="w-44" placeholder="value" />;
};

export const FilterRow = ({ filter, columns, error, references, onChange, onRemove }: Props) => {
  const column = columns.find((c) => c.name === filter.column);
  const ops = operatorsFor(column?.type ?? "varchar");
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <SelectInput aria-label="Filter column" className="w-40" value={filter.column} onChange={(e) => onChange({ ...filter, column: e.target.value, op: "eq", value: "" })}>
          {columns.map((c) => (
            <option key={c.name}>{c.name}</option>
          ))}
        </SelectInput>
        <SelectInput aria-label="Operator" className="w-48" value={filter.op} onChange={(e) => onChange({ ...filter, op: e.target.value as Filter["op"], value: "" })}>
          {ops.map((o) => (
            <option key={o.op} value={o.op}>
              {o.label}
            </option>
          ))}
        </SelectInput>
        {column && references && isReference(column) && (filter.op === "eq" || filter.op === "ne") ? (
          <ReferenceValue key={`${filter.column}:${filter.op}`} filter={filter} column={column} references={references} invalid={!!error} onChange={(value) => onChange({ ...filter, value })} />
        ) : (
          <ValueInput filter={filter} column={column} invalid={!!error} onChange={(value) => onChange({ ...filter, value })} />
        )}
        <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove filter ${paramName(filter)}`}>
          ×
        </Button>
      </div>
      {error && (
        <p role="alert" className="field-error mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
};
