"use client";
// Record history through the data API (docs/history.md): a record's revisions, a table's recently deleted
// records, and restoring a revision. Kept under the table's records key, so any write to it refreshes them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dataRequest } from "./data-client";
import { queryKeys } from "./query-keys";
import type { DataRecord } from "./types";
import { rowCountsKey } from "./use-records";

export type Revision = {
  rev: number;
  action: "insert" | "update" | "delete";
  record: DataRecord | null;
  changed: string[];
  at: string;
  actor: { kind: "key" | "user" | "member" | "system"; id: number | null } | null;
};

const PAGE = 50;

export const useRecordHistory = (instance: string, table: string, id: number, key: string) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), "*history", id, key],
    queryFn: () => dataRequest<Revision[]>(instance, `${encodeURIComponent(table)}/${id}/_history?_limit=${PAGE}`, key),
  });

export const useDeletedRecords = (instance: string, table: string, key: string) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), "*deleted", key],
    queryFn: () => dataRequest<Revision[]>(instance, `${encodeURIComponent(table)}/_deleted?_limit=${PAGE}`, key),
  });

export const useRestoreRevision = (instance: string, table: string, key: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rev }: { id: number; rev: number }) =>
      dataRequest<DataRecord>(instance, `${encodeURIComponent(table)}/${id}/_restore`, key, { method: "POST", body: { rev } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) });
      void qc.invalidateQueries({ queryKey: rowCountsKey(instance) });
    },
  });
};
