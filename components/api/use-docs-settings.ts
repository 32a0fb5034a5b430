"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { DocsSettings as DocsSettingsSchema, DocsSettingsInput as DocsSettingsInputSchema } from "@/lib/contract/schemas/docs";
import { databasePath, mgmt } from "./management-client";
import { queryKeys } from "./query-keys";

/** GET|PUT /databases/{instance}/docs, typed from the route's zod schemas (lib/contract/schemas/docs.ts). */
export type DocsSettings = z.output<typeof DocsSettingsSchema>;
export type DomainStatus = DocsSettings["domain_status"];
export type DocsSettingsInput = z.input<typeof DocsSettingsInputSchema>;

const docsPath = (instance: string) => `${databasePath(instance)}/docs`;

export const useDocsSettings = (instance: string) =>
  useQuery({ queryKey: queryKeys.docsSettings(instance), queryFn: () => mgmt<DocsSettings>(docsPath(instance)) });

export const useSaveDocsSettings = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: DocsSettingsInput) => mgmt<DocsSettings>(docsPath(instance), { method: "PUT", body }),
    onSuccess: (data) => qc.setQueryData(queryKeys.docsSettings(instance), data),
  });
};

/** Looks the DNS records up now; the answer is the new state (verified, or why not). */
export const useVerifyDocsDomain = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => mgmt<DocsSettings>(`${docsPath(instance)}/verify`, { method: "POST" }),
    onSuccess: (data) => qc.setQueryData(queryKeys.docsSettings(instance), data),
  });
};
