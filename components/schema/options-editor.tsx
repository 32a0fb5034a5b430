"use client";
import { type KeyboardEvent, useState } from "react";
import { Button } from "../ui/button";
import { TextInput } from "../ui/field";

type Props = {
  id: string;
  options: string[];
  onChange: (o: string[]) => void;
  /** Renames an option in place (its rows follow once saved). */
  onRename: (from: string, to: string) => void;
  invalid?: boolean;
};

/** One option's new name: Enter or leaving the box keeps it, Escape cancels. */
const RenameBox = ({ option, onDone }: { option: string; onDone: (to?: string) => void }) => {
  const [text, setText] = useState(option);
  const id = `rename-option-${option}`;
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onDone(e.key === "Enter" ? text : undefined);
    }
  };
  return (
    <li className="inline-flex items-center">
      <label htmlFor={id} className="sr-only">
        New name for option {option}
      </label>
      <TextInput id={id} autoFocus value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey} onBlur={() => onDone(text)} className="h-6 w-32 py-0 text-xs" />
    </li>
  );
};

/** The options of a dropdown column: chips to rename or remove, a box to add (Enter, the button, or leaving the box: typed text is never dropped). */
export const OptionsEditor = ({ id, options, onChange, onRename, invalid }: Props) => {
  const [text, setText] = useState("");
  const [renaming, setRenaming] = useState<string | null>(null);
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
  const chipButton = "grid size-4 place-items-center rounded-full text-indigo-700 hover:bg-indigo-200 hover:text-indigo-900";
  return (
    <div>
      {options.length > 0 && (
        <ul className="mb-1.5 flex flex-wrap gap-1" aria-label="Options">
          {options.map((o) =>
            renaming === o ? (
              <RenameBox
                key={o}
                option={o}
                onDone={(to) => {
                  setRenaming(null);
                  if (to !== undefined) onRename(o, to);
                }}
              />
            ) : (
              <li key={o} className="inline-flex items-center gap-0.5 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2 text-xs text-indigo-800 ring-1 ring-indigo-200">
                {o}
                <button type="button" onClick={() => setRenaming(o)} className={`${chipButton} ml-0.5`} aria-label={`Rename option ${o}`} title="Rename: rows holding it follow">
                  ✎
                </button>
                <button type="button" onClick={() => onChange(options.filter((x) => x !== o))} className={chipButton} aria-label={`Remove option ${o}`}>
                  ×
                </button>
              </li>
            ),
          )}
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
