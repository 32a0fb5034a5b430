"use client";
import { CopyButton } from "../ui/copy-button";

/** The request the grid just sent, in the data API's grammar: what the user's own app could send. */
export const QueryPreview = ({ instance, table, queryString }: { instance: string; table: string; queryString: string }) => {
  const path = `/v1/${instance}/${table}?${queryString}`;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = `curl '${origin}${path}' -H "x-api-key: $TABULA_KEY"`;
  return (
    <div className="flex items-center gap-2 rounded-md bg-slate-900 py-1.5 pr-1.5 pl-3 text-slate-100">
      <code data-testid="query-preview" className="min-w-0 flex-1 overflow-x-auto font-mono text-xs whitespace-nowrap">
        <span className="text-emerald-400">GET</span> {path}
      </code>
      <CopyButton text={path} label="Copy URL" />
      <CopyButton text={curl} label="Copy cURL" />
    </div>
  );
};
