"use client";
import { useQuery } from "@tanstack/react-query";
import { dataRequest } from "./data-client";
import { queryKeys } from "./query-keys";

export type OpenApiDocument = {
  info: { title: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, { summary?: string; "x-codeSamples"?: { lang: string; source: string }[] }>>;
};

/** The live OpenAPI document of a database, fetched fresh every time the docs tab opens. */
export const useOpenApi = (instance: string, key: string | undefined) =>
  useQuery({
    queryKey: [...queryKeys.openapi(instance), key],
    enabled: !!key,
    staleTime: 0,
    refetchOnMount: "always",
    queryFn: () => dataRequest<OpenApiDocument>(instance, "openapi.json", key!),
  });
