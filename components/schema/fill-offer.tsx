"use client";
import { useState } from "react";
import type { ColumnType } from "../api/types";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { choicesOf } from "@/lib/schema/type-traits";

type Props = { message: string; type: ColumnType; options: string[]; pending: boolean; error?: string; onFill: (text: string) => void };

/** "2 rows have no value…" → how many. */
const countOf = (message: string) => Number(/^(\d+) rows?/.exec(message)?.[1] ?? 0);

/** The way out of "required, but rows are empty": a value for those rows, saved with the change (PATCH `fill`). */
export const FillOffer = ({ message, type, options, pending, error, onFill }: Props) => {
  const [text, setText] = useState("");
  const n = countOf(message);
  const rows = n === 1 ? "the empty row" : n ? `the ${n} empty rows` : "the empty rows";
  const choices = choicesOf({ type, options });
  return (
    <div className="flex flex-wrap items-end gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <label htmlFor="fill-value" className="w-full font-medium sm:w-auto sm:self-center">
        Fill {rows} with
      </label>
      {choices ? (
        <SelectInput id="fill-value" className="w-44" invalid={!!error} value={text} onChange={(e) => setText(e.target.value)}>
          <option value="">Choose…</option>
          {choices.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </SelectInput>
      ) : (
        <TextInput id="fill-value" className="w-44" invalid={!!error} value={text} onChange={(e) => setText(e.target.value)} placeholder={type === "date" ? "2025-01-31" : "value"} />
      )}
      <Button size="sm" variant="primary" disabled={!text} pending={pending} onClick={() => onFill(text)}>
        Fill and save
      </Button>
      {error && (
        <p role="alert" className="w-full text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
};
