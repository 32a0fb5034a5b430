"use client";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { type Filter, operatorsFor, paramName, type QueryColumn } from "./build-query";

type Props = { filter: Filter; columns: QueryColumn[]; error?: string; onChange: (f: Filter) => void; onRemove: () => void };

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

export const FilterRow = ({ filter, columns, error, onChange, onRemove }: Props) => {
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
        <ValueInput filter={filter} column={column} invalid={!!error} onChange={(value) => onChange({ ...filter, value })} />
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
