"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt } from "./management-client";
import { queryKeys } from "./query-keys";

export type DomainStatus = "none" | "pending" | "verified" | "failing";

/** GET|PUT /databases/{instance}/docs (lib/mgmt/schemas/docs.ts). */
export type DocsSettings = {
  public: boolean;
  url: string | null;
  domain: string | null;
  domain_status: DomainStatus;
  domain_error: string | null;
  checked_at: string | null;
  cname_target: string;
  txt: { name: string; value: string } | null;
};

export type DocsSettingsInput = { public: boolean; domain?: string | null };

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
