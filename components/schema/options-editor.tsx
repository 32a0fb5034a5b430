"use client";
import { type KeyboardEvent, useState } from "react";
import { Button } from "../ui/button";
import { TextInput } from "../ui/field";

/** The options of a dropdown column: chips to remove, a box to add (Enter, the button, or leaving the box: typed text is never dropped). */
export const OptionsEditor = ({ id, options, onChange, invalid }: { id: string; options: string[]; onChange: (o: string[]) => void; invalid?: boolean }) => {
  const [text, setText] = useState("");
  const add = () => {
    const values = text
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v && !options.includes(v));
    if (values.length) onChange([...options, ...values]);
    setText("");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      add();
    }
  };
  return (
    <div>
      {options.length > 0 && (
        <ul className="mb-1.5 flex flex-wrap gap-1" aria-label="Options">
          {options.map((o) => (
            <li key={o} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2 text-xs text-indigo-800 ring-1 ring-indigo-200">
              {o}
              <button
                type="button"
                onClick={() => onChange(options.filter((x) => x !== o))}
                className="grid size-4 place-items-center rounded-full text-indigo-500 hover:bg-indigo-200 hover:text-indigo-900"
                aria-label={`Remove option ${o}`}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-1.5">
        <TextInput id={id} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey} onBlur={add} placeholder="Add options: draft, live" invalid={invalid} />
        <Button size="sm" className="h-auto" onClick={add} disabled={!text.trim()}>
          Add
        </Button>
      </div>
    </div>
  );
};
