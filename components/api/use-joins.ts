"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Join, JoinInput, JoinPreview, JoinPreviewInput } from "./types";

const joinsPath = (instance: string) => `${databasePath(instance)}/joins`;

type Unnamed<T> = T extends unknown ? Omit<T, "name"> : never;

/** A definition in either form before it has a name: what the editors build, preview and save. */
export type JoinForm = Unnamed<JoinInput>;

export const useJoins = (instance: string) =>
  useQuery({ queryKey: ["joins", instance], queryFn: () => mgmt<Join[]>(joinsPath(instance)) });

/** Saving or deleting a join changes the data API: the list and the live docs refresh. */
const useJoinMutation = <I, O>(instance: string, run: (input: I) => Promise<O>) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ["joins", instance] }), qc.invalidateQueries({ queryKey: queryKeys.openapi(instance) })]),
  });
};

export const useCreateJoin = (instance: string) =>
  useJoinMutation(instance, (input: JoinInput) => mgmt<Join>(joinsPath(instance), { method: "POST", body: input }));

/** Renames a join and/or replaces its definition (PATCH): `{name?, sql}` or `{name?, base, joins, columns}`. */
export const useUpdateJoin = (instance: string) =>
  useJoinMutation(instance, ({ join, body }: { join: string; body: Partial<JoinInput> }) =>
    mgmt<Join>(`${joinsPath(instance)}/${encodeURIComponent(join)}`, { method: "PATCH", body }),
  );

export const useDeleteJoin = (instance: string) =>
  useJoinMutation(instance, (name: string) => mgmt<void>(`${joinsPath(instance)}/${encodeURIComponent(name)}`, { method: "DELETE" }));

/** Checks an unsaved definition and reads its first rows (nothing is stored). */
export const previewJoin = (instance: string, input: JoinPreviewInput) => mgmt<JoinPreview>(`${joinsPath(instance)}/preview`, { method: "POST", body: input });
