"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { readResponse } from "./api-error";
import { dataFetch, dataRequest } from "./data-client";
import { queryKeys } from "./query-keys";
import type { DataRecord } from "./types";

export type RecordsPage = { rows: DataRecord[]; total: number | null };

/** One page of records through the data API, with `Prefer: count=exact` for the total. */
export const useRecords = (instance: string, table: string, queryString: string, key: string | undefined) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), queryString, key],
    enabled: !!key,
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<RecordsPage> => {
      const res = await dataFetch(instance, `${encodeURIComponent(table)}?${queryString}`, key!, { headers: { prefer: "count=exact" } });
      const rows = await readResponse<DataRecord[]>(res, "data");
      const total = res.headers.get("x-total-count");
      return { rows, total: total === null ? null : Number(total) };
    },
  });

type Write = { id?: number; body: Record<string, unknown> };

export const useRecordMutations = (instance: string, table: string, key: string | undefined) => {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) });
  const path = (id?: number) => `${encodeURIComponent(table)}${id === undefined ? "" : `/${id}`}`;
  const save = useMutation({
    mutationFn: ({ id, body }: Write) => dataRequest<DataRecord>(instance, path(id), key!, { method: id === undefined ? "POST" : "PATCH", body }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => dataRequest<void>(instance, path(id), key!, { method: "DELETE" }),
    onSuccess: refresh,
  });
  return { save, remove };
};

/** Row counts of the tables (one `_limit=1` read with `Prefer: count=exact` each), for the Data tab's table list. */
export const useRowCounts = (instance: string, tables: string[], key: string | undefined) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, "*counts"), tables.join(","), key],
    enabled: !!key && tables.length > 0,
    queryFn: async () => {
      const counts = await Promise.all(
        tables.map(async (t) => {
          const res = await dataFetch(instance, `${encodeURIComponent(t)}?_limit=1`, key!, { headers: { prefer: "count=exact" } });
          await res.body?.cancel();
          const total = res.headers.get("x-total-count");
          return [t, res.ok && total !== null ? Number(total) : null] as const;
        }),
      );
      return Object.fromEntries(counts) as Record<string, number | null>;
    },
  });
