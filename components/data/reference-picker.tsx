"use client";
import { type KeyboardEvent, useEffect, useState } from "react";
import type { DataRecord, Table } from "../api/types";
import { inputClass } from "../ui/field";
import { displayColumnOf, pickerQuery, type ReadRows } from "./reference-display";

type Props = {
  id: string;
  target: Table | undefined;
  /** The chosen id as text ("" = none). */
  value: string;
  /** The chosen row's display text, when known. */
  label?: string;
  invalid?: boolean;
  describedBy?: string;
  read: ReadRows;
  onChange: (id: string, label?: string) => void;
  /** Text typed but not yet turned into a choice: kept and reported, never silently dropped. */
  onPending: (text: string | null) => void;
};

const labelOf = (row: DataRecord, display: string) => (row[display] == null ? `#${row.id}` : String(row[display]));

/** A searchable combobox of the referenced table's rows, by their display column; it stores the id. */
export const ReferencePicker = ({ id, target, value, label, invalid, describedBy, read, onChange, onPending }: Props) => {
  const display = displayColumnOf(target);
  const shown = value ? (label ?? `#${value}`) : "";
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [options, setOptions] = useState<DataRecord[]>([]);
  const typing = text !== shown;

  useEffect(() => {
    if (!open || !target) return;
    let live = true;
    const timer = setTimeout(() => {
      read(target.name, pickerQuery(target, typing ? text : "")).then((rows) => live && (setOptions(rows), setActive(0)), () => live && setOptions([]));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, text, typing, target, read]);

  const choose = (row: DataRecord) => {
    const name = labelOf(row, display);
    setText(name);
    setOpen(false);
    onPending(null);
    onChange(String(row.id), name);
  };
  const type = (next: string) => {
    setText(next);
    setOpen(true);
    if (next === "") {
      onPending(null);
      onChange("");
    } else onPending(next);
  };
  // Leaving the box: a text naming exactly one row picks it; anything else stays as a pending choice.
  const blur = () => {
    setOpen(false);
    if (!typing || !text) return;
    const exact = options.filter((o) => labelOf(o, display).toLowerCase() === text.trim().toLowerCase());
    const pick = exact.length === 1 ? exact[0] : options.length === 1 ? options[0] : undefined;
    if (pick) choose(pick);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, options.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter" && open && options[active]) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === "Escape" && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };
  const listId = `${id}-options`;
  return (
    <div className="relative">
      <input
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && options[active] ? `${listId}-${options[active].id}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        className={`${inputClass(invalid)} w-full`}
        placeholder={`Search ${target?.name ?? "rows"} by ${display}`}
        value={text}
        onChange={(e) => type(e.target.value)}
        onFocus={() => setOpen(true)}
        onBlur={blur}
        onKeyDown={onKey}
      />
      {open && (
        <ul id={listId} role="listbox" aria-label={`Rows of ${target?.name}`} className="absolute z-20 mt-1 max-h-56 w-full overflow-y-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg">
          {options.length === 0 && <li className="px-3 py-1.5 text-slate-600">No matching rows</li>}
          {options.map((o, i) => (
            <li
              key={o.id}
              id={`${listId}-${o.id}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
              className={`flex cursor-pointer justify-between gap-3 px-3 py-1.5 ${i === active ? "bg-indigo-50 text-indigo-900" : "text-slate-800"}`}
            >
              <span className="truncate">{labelOf(o, display)}</span>
              <span className="text-xs text-slate-600 tabular-nums">#{o.id}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
