"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt, tablePath } from "./management-client";
import { queryKeys } from "./query-keys";
import type { HookAction, HookLog, HookLogQuery, Hooks, HookTryInput, HookTryResult } from "./types";

export type { HookAction, HookLog, HookLogQuery, HookRunStatus, Hooks, HookStep, HookStepOutcome, HookTryInput, HookTryResult } from "./types";

export const HOOK_ACTIONS: HookAction[] = ["insert", "update", "delete"];

export const useHooks = (instance: string, table: string) =>
  useQuery({ queryKey: queryKeys.hooks(instance, table), queryFn: () => mgmt<Hooks>(`${tablePath(instance, table)}/hooks`), enabled: !!table });

/** Saving changes what every later write runs; the logs of earlier runs stay as they were. */
export const useSaveHooks = (instance: string, table: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Hooks) => mgmt<Hooks>(`${tablePath(instance, table)}/hooks`, { method: "PUT", body }),
    onSuccess: (data) => qc.setQueryData(queryKeys.hooks(instance, table), data),
  });
};

/** Runs the saved hooks on a sample row: nothing is written and nothing is logged. */
export const useTryHooks = (instance: string, table: string) =>
  useMutation({ mutationFn: (body: HookTryInput) => mgmt<HookTryResult>(`${tablePath(instance, table)}/hooks/try`, { method: "POST", body }) });

const logQuery = (query: HookLogQuery) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
};

export const useHookLogs = (instance: string, query: HookLogQuery) =>
  useQuery({ queryKey: queryKeys.hookLogs(instance, query), queryFn: () => mgmt<HookLog[]>(`${databasePath(instance)}/hooks/logs${logQuery(query)}`) });
