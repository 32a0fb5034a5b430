"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { ApiKey, KeyCreate } from "./types";

export const useKeys = () => useQuery({ queryKey: queryKeys.keys, queryFn: () => mgmt<ApiKey[]>("keys") });

/** A key change can change the key the dashboard itself uses, so everything that reads data refetches. */
const useKeyMutation = <I>(run: (input: I) => Promise<ApiKey | void>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.keys }),
        qc.invalidateQueries({ queryKey: ["records"] }),
        qc.invalidateQueries({ queryKey: ["openapi"] }),
      ]),
  });
};

export const useCreateKey = () =>
  useKeyMutation((input: KeyCreate) => mgmt<ApiKey>("keys", { method: "POST", body: input }));

export const useRegenerateKey = () => useKeyMutation((id: number) => mgmt<ApiKey>(`keys/${id}/regenerate`, { method: "POST" }));

export const useRevokeKey = () => useKeyMutation((id: number) => mgmt<void>(`keys/${id}`, { method: "DELETE" }));
