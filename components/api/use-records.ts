"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { readResponse } from "./api-error";
import { dataFetch, dataRequest, dataUpload } from "./data-client";
import { queryKeys } from "./query-keys";
import { resumableParts, tusUpload } from "./tus-upload";
import type { DataRecord } from "./types";

/** `next`: the `_after` cursor of the page that follows (from the `Link: <…>; rel="next"` header), null on the last. */
export type RecordsPage = { rows: DataRecord[]; total: number | null; next: string | null };

/** The `_after` value of a `Link: <url>; rel="next"` header. */
export const nextCursor = (link: string | null): string | null => {
  const target = link?.match(/<([^>]*)>\s*;\s*rel="next"/)?.[1];
  return target ? new URL(target, "http://link.invalid").searchParams.get("_after") : null;
};

const totalOf = (res: Response) => {
  const total = res.headers.get("x-total-count");
  return res.ok && total !== null ? Number(total) : null;
};

/** How many rows match `filters` (a data API query string of filters alone): a `_limit=1` read with `Prefer: count=exact`. */
const countRecords = async (instance: string, table: string, filters: string, key: string) => {
  const res = await dataFetch(instance, `${encodeURIComponent(table)}?${filters ? `${filters}&` : ""}_limit=1`, key, { headers: { prefer: "count=exact" } });
  await res.body?.cancel();
  return totalOf(res);
};

/**
 * One page of records through the data API; `count` adds `Prefer: count=exact` for the total (cursor pages of a
 * large table leave it out: counting costs a scan of every matching row, the page itself does not).
 */
export const useRecords = (instance: string, table: string, queryString: string, key: string | undefined, { count = true } = {}) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), queryString, key, count],
    enabled: !!key,
    placeholderData: keepPreviousData,
    queryFn: async (): Promise<RecordsPage> => {
      const res = await dataFetch(instance, `${encodeURIComponent(table)}?${queryString}`, key!, count ? { headers: { prefer: "count=exact" } } : {});
      const rows = await readResponse<DataRecord[]>(res, "data");
      return { rows, total: count ? totalOf(res) : null, next: nextCursor(res.headers.get("link")) };
    },
  });

/** The number of rows matching the grid's filters, on its own (while the pages go by cursor without a count). */
export const useRecordTotal = (instance: string, table: string, filters: string, key: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), "*total", filters, key],
    enabled: !!key && enabled,
    placeholderData: keepPreviousData,
    queryFn: () => countRecords(instance, table, filters, key!),
  });

/** `GET /{table}/_aggregate?<query>`: one row per group (under the table's records key, so live changes refresh it). */
export const useAggregate = (instance: string, table: string, query: string, key: string | undefined, enabled: boolean) =>
  useQuery({
    queryKey: [...queryKeys.records(instance, table), "*aggregate", query, key],
    enabled: !!key && enabled,
    placeholderData: keepPreviousData,
    queryFn: () => dataRequest<Record<string, unknown>[]>(instance, `${encodeURIComponent(table)}/_aggregate?${query}`, key!),
  });

/** `upload`: the write goes as multipart (files as parts, `body` as the `_json` field), reporting its progress. */
type Write = { id?: number; body: Record<string, unknown>; upload?: { form: FormData; onProgress: (sent: number) => void } };

export const useRecordMutations = (instance: string, table: string, key: string | undefined) => {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) });
  const path = (id?: number) => `${encodeURIComponent(table)}${id === undefined ? "" : `/${id}`}`;
  const uploadResumable = async (files: { column: string; file: File }[], body: Record<string, unknown>, method: string, id: number | undefined, onProgress: (sent: number) => void) => {
    const total = files.reduce((sum, f) => sum + f.file.size, 0) || 1;
    let done = 0;
    const attached: Record<string, unknown> = { ...body };
    for (const { column, file } of files) {
      attached[column] = { upload: await tusUpload(instance, key!, file, (bytes) => onProgress((done + bytes) / total)) };
      done += file.size;
    }
    const saved = await dataRequest<DataRecord>(instance, path(id), key!, { method, body: attached });
    onProgress(1);
    return saved;
  };
  const save = useMutation({
    mutationFn: ({ id, body, upload }: Write) => {
      const method = id === undefined ? "POST" : "PATCH";
      if (!upload) return dataRequest<DataRecord>(instance, path(id), key!, { method, body });
      // Big files go through tus (resumable), one after the other, then the write attaches them.
      const resumable = resumableParts(upload.form);
      if (resumable) return uploadResumable(resumable, body, method, id, upload.onProgress);
      // The other fields first, then the files.
      const form = new FormData();
      form.append("_json", JSON.stringify(body));
      for (const [name, value] of upload.form) form.append(name, value);
      return dataUpload<DataRecord>(instance, path(id), key!, method, form, upload.onProgress);
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => dataRequest<void>(instance, path(id), key!, { method: "DELETE" }),
    onSuccess: refresh,
  });
  return { save, remove };
};

/** The query key of the Data tab's row counts: live inserts and deletes refresh it. */
export const rowCountsKey = (instance: string) => queryKeys.records(instance, "*counts");

/** Row counts of the tables (one `_limit=1` read with `Prefer: count=exact` each), for the Data tab's table list. */
export const useRowCounts = (instance: string, tables: string[], key: string | undefined) =>
  useQuery({
    queryKey: [...rowCountsKey(instance), tables.join(","), key],
    enabled: !!key && tables.length > 0,
    queryFn: async () => {
      const counts = await Promise.all(tables.map(async (t) => [t, await countRecords(instance, t, "", key!)] as const));
      return Object.fromEntries(counts) as Record<string, number | null>;
    },
  });
