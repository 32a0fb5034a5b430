"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SavedView, ViewInput, ViewPatch } from "@/lib/contract/schemas/views";
import { mgmt, tablePath } from "./management-client";

export type { SavedView };

const viewsPath = (instance: string, table: string) => `${tablePath(instance, table)}/views`;
const key = (instance: string, table: string) => ["views", instance, table] as const;

/** The table's shared views and your private ones. */
export const useViews = (instance: string, table: string) => useQuery({ queryKey: key(instance, table), queryFn: () => mgmt<SavedView[]>(viewsPath(instance, table)) });

const useViewMutation = <I, O>(instance: string, table: string, run: (input: I) => Promise<O>) => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => qc.invalidateQueries({ queryKey: key(instance, table) }) });
};

export const useCreateView = (instance: string, table: string) =>
  useViewMutation(instance, table, (body: ViewInput) => mgmt<SavedView>(viewsPath(instance, table), { method: "POST", body }));

export const useUpdateView = (instance: string, table: string) =>
  useViewMutation(instance, table, ({ id, body }: { id: number; body: ViewPatch }) => mgmt<SavedView>(`${viewsPath(instance, table)}/${id}`, { method: "PATCH", body }));

export const useDeleteView = (instance: string, table: string) =>
  useViewMutation(instance, table, (id: number) => mgmt<void>(`${viewsPath(instance, table)}/${id}`, { method: "DELETE" }));
