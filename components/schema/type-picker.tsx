import type { ColumnType } from "../api/types";
import { SelectInput } from "../ui/field";
import { TYPE_GROUPS } from "./column-draft";

/** Every column type, grouped, with what it stores. */
export const TypePicker = ({ id, value, onChange, invalid, className }: { id: string; value: ColumnType; onChange: (t: ColumnType) => void; invalid?: boolean; className?: string }) => (
  <SelectInput id={id} value={value} onChange={(e) => onChange(e.target.value as ColumnType)} invalid={invalid} aria-label="Type" className={className}>
    {TYPE_GROUPS.map((g) => (
      <optgroup key={g.label} label={g.label}>
        {g.types.map((t) => (
          <option key={t.type} value={t.type}>
            {t.label}
          </option>
        ))}
      </optgroup>
    ))}
  </SelectInput>
);
