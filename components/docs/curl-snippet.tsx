"use client";
import { useState } from "react";
import type { OpenApiDocument } from "../api/use-openapi";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { SelectInput } from "../ui/field";

const KEY_PLACEHOLDER = "<API_KEY>";

export const maskKey = (key: string) => `${key.slice(0, 7)}…${key.slice(-4)}`;

/** Every operation's cURL sample from the document (`x-codeSamples`), with the user's key in the header. */
const operationsOf = (spec: OpenApiDocument) =>
  Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => op?.["x-codeSamples"]?.length)
      .map(([method, op]) => ({ id: `${method} ${path}`, label: `${method.toUpperCase()} ${path}`, summary: op.summary ?? "", source: op["x-codeSamples"]![0].source })),
  );

export const CurlSnippet = ({ spec, apiKey }: { spec: OpenApiDocument; apiKey: string }) => {
  const operations = operationsOf(spec);
  const [selected, setSelected] = useState(operations.find((o) => o.id.startsWith("post "))?.id ?? operations[0]?.id);
  const [revealed, setRevealed] = useState(false);
  const operation = operations.find((o) => o.id === selected) ?? operations[0];
  if (!operation) return null;
  const full = operation.source.replaceAll(KEY_PLACEHOLDER, apiKey);
  const shown = operation.source.replaceAll(KEY_PLACEHOLDER, revealed ? apiKey : maskKey(apiKey));
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="mr-auto text-sm font-semibold text-slate-900">Ready-to-run cURL</h2>
        <SelectInput aria-label="Operation" className="w-full sm:w-72" value={operation.id} onChange={(e) => setSelected(e.target.value)}>
          {operations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label} — {o.summary}
            </option>
          ))}
        </SelectInput>
        <Button size="sm" onClick={() => setRevealed(!revealed)}>
          {revealed ? "Hide key" : "Show key"}
        </Button>
        <CopyButton text={full} />
      </div>
      <pre data-testid="curl-snippet" tabIndex={0} aria-label="cURL command" className="mt-3 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
        {shown}
      </pre>
    </div>
  );
};
