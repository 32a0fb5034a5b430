"use client";
import Link from "next/link";
import { useDashboardKey } from "../api/use-dashboard-key";
import { useOpenApi } from "../api/use-openapi";
import { ErrorState, LoadingState } from "../ui/states";
import { CurlSnippet, maskKey } from "./curl-snippet";
import { useEffect } from "react";
import { loadSwagger, SwaggerPanel } from "./swagger-panel";

/** The API Docs tab: Swagger UI over the database's live OpenAPI document first, then a cURL sample with the user's key. */
export const ApiDocs = ({ instance }: { instance: string }) => {
  // Swagger's bundle loads while the key and the document are fetched, not after.
  useEffect(() => void loadSwagger().catch(() => {}), []);
  const dashboardKey = useDashboardKey();
  const key = dashboardKey.key?.key;
  const doc = useOpenApi(instance, key);
  if (dashboardKey.error) return <ErrorState error={dashboardKey.error} title="Could not get an API key for the docs" onRetry={() => dashboardKey.refetch()} />;
  if (!key || doc.isLoading) return <LoadingState label="Loading the live API document…" />;
  if (doc.error) return <ErrorState error={doc.error} title="Could not load openapi.json" onRetry={() => doc.refetch()} />;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <p>
          Generated from the current schema, fresh each time this tab opens. Raw document:{" "}
          <code className="font-mono text-xs">GET /v1/{instance}/openapi.json</code>
        </p>
        <p>
          Try it out uses your key <span className="font-medium text-slate-900">{dashboardKey.key!.name}</span>{" "}
          <code className="font-mono text-xs">{maskKey(key)}</code> ·{" "}
          <Link className="text-indigo-600 underline hover:text-indigo-500" href="/settings/keys">
            manage keys
          </Link>
        </p>
      </div>
      <SwaggerPanel spec={doc.data!} apiKey={key} />
      <CurlSnippet spec={doc.data!} apiKey={key} />
    </div>
  );
};
