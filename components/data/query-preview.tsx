"use client";
import { CopyButton } from "../ui/copy-button";

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A cURL command that runs as pasted into a POSIX shell: its first line defines the key it sends. */
export const curlCommand = (url: string, apiKey: string) => `TABULA_KEY=${shellQuote(apiKey)}\ncurl ${shellQuote(url)} -H "x-api-key: $TABULA_KEY"`;

/** The request the grid just sent, in the data API's grammar: what the user's own app could send. */
export const QueryPreview = ({ instance, table, queryString, apiKey }: { instance: string; table: string; queryString: string; apiKey: string }) => {
  const path = `/v1/${instance}/${table}?${queryString}`;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md bg-slate-900 py-1.5 pr-1.5 pl-3 text-slate-100">
      <code data-testid="query-preview" tabIndex={0} className="min-w-0 flex-1 basis-full overflow-x-auto sm:basis-0 font-mono text-xs whitespace-nowrap">
        <span className="text-emerald-300">GET</span> {path}
      </code>
      <CopyButton text={path} label="Copy URL" />
      <CopyButton text={curlCommand(`${origin}${path}`, apiKey)} label="Copy cURL" />
    </div>
  );
};
