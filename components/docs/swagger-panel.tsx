"use client";
import "swagger-ui-dist/swagger-ui.css";
import { useEffect, useRef, useState } from "react";
import { foldColumnFilters } from "./fold-column-filters";
import { nameSwaggerSelects } from "./name-swagger-selects";
import { openApiForSwagger } from "./openapi-for-swagger";
import type { OpenApiDocument } from "../api/use-openapi";
import { ErrorState, LoadingState } from "../ui/states";

let bundle: Promise<typeof import("swagger-ui-dist/swagger-ui-es-bundle.js")> | undefined;
/** Swagger UI's bundle, fetched once from this server's own build (never a CDN); called early to load it in parallel with the document. */
export const loadSwagger = () => (bundle ??= import("swagger-ui-dist/swagger-ui-es-bundle.js"));

/**
 * Swagger UI over the live document, with the user's key authorised for "Try it out" (x-api-key). It reads the
 * document restated as OpenAPI 3.0 (openapi-for-swagger.js: several times faster than its 3.1 reader). Per-column
 * filters fold behind a toggle. It renders again only when the document's content changes, not on every refetch.
 */
export const SwaggerPanel = ({ spec, apiKey }: { spec: OpenApiDocument; apiKey: string }) => {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | Error>("loading");
  useEffect(() => {
    let cancelled = false;
    loadSwagger()
      .then(({ default: SwaggerUIBundle }) => {
        if (cancelled || !ref.current) return;
        const ui = SwaggerUIBundle({
          domNode: ref.current,
          spec: openApiForSwagger(spec),
          deepLinking: false,
          docExpansion: "list",
          defaultModelsExpandDepth: 0,
          displayRequestDuration: true,
          persistAuthorization: false,
          requestSnippetsEnabled: true,
          plugins: [foldColumnFilters],
          requestInterceptor: (req) => {
            const hasCredential = Object.keys(req.headers).some((h) => ["x-api-key", "authorization"].includes(h.toLowerCase()));
            if (!hasCredential) req.headers["x-api-key"] = apiKey;
            return req;
          },
          onComplete: () => {
            ui.preauthorizeApiKey("apiKey", apiKey);
            if (!cancelled) setState("ready");
          },
        });
      })
      .catch((err: Error) => !cancelled && setState(err));
    const labelSelects = ref.current ? nameSwaggerSelects(ref.current) : undefined;
    return () => {
      cancelled = true;
      labelSelects?.disconnect();
    };
  }, [spec, apiKey]);
  return (
    <div className="rounded-lg border border-slate-200 bg-white shadow-xs">
      {state === "loading" && <LoadingState label="Rendering the docs…" />}
      {state instanceof Error && <ErrorState error={state} title="Swagger UI failed to load" />}
      <div ref={ref} className="tabula-swagger" data-testid="swagger-ui" />
    </div>
  );
};
