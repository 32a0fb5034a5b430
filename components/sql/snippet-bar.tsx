"use client";
import { useEffect, useId, useState } from "react";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { loadSnippets, type Snippet, storeSnippets, withSnippet } from "./snippets";

type Props = { instance: string; sql: string; onLoad: (sql: string) => void };

/** Saved snippets of this browser: save the editor's SQL under a name, open one, delete one. */
export const SnippetBar = ({ instance, sql, onLoad }: Props) => {
  const [snippets, setSnippets] = useState<Snippet[]>([]);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState("");
  const id = useId();
  useEffect(() => setSnippets(loadSnippets(instance)), [instance]);
  const update = (next: Snippet[]) => {
    setSnippets(next);
    storeSnippets(instance, next);
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={`${id}-name`} className="sr-only">
        Snippet name
      </label>
      <TextInput id={`${id}-name`} className="w-40" placeholder="Snippet name" value={name} onChange={(e) => setName(e.target.value)} />
      <Button
        disabled={!name.trim() || !sql.trim()}
        onClick={() => {
          update(withSnippet(snippets, { name: name.trim(), sql }));
          setChosen(name.trim());
          setName("");
        }}
      >
        Save snippet
      </Button>
      {snippets.length > 0 && (
        <>
          <label htmlFor={`${id}-pick`} className="sr-only">
            Saved snippets
          </label>
          <SelectInput
            id={`${id}-pick`}
            className="w-44"
            value={chosen}
            onChange={(e) => {
              setChosen(e.target.value);
              const found = snippets.find((s) => s.name === e.target.value);
              if (found) onLoad(found.sql);
            }}
          >
            <option value="">Saved snippets…</option>
            {snippets.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </SelectInput>
          <Button variant="ghost" disabled={!chosen} onClick={() => update(snippets.filter((s) => s.name !== chosen))} aria-label={chosen ? `Delete snippet ${chosen}` : "Delete snippet"}>
            Delete
          </Button>
        </>
      )}
    </div>
  );
};
