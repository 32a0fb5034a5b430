"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { can } from "./can";
import { databasePath, mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Database, DatabaseCreate, DatabaseListQuery, DatabaseSummary } from "./types";

const listPath = (query: DatabaseListQuery) => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  return params.size ? `databases?${params}` : "databases";
};

/** `GET /databases` with its filters: `mine` (your workspace) unless the query says otherwise. */
export const useDatabases = (query: DatabaseListQuery = { scope: "mine" }) =>
  useQuery({ queryKey: queryKeys.databaseList(query), queryFn: () => mgmt<DatabaseSummary[]>(listPath(query)) });

/** One database with its tables; `enabled: false` waits (e.g. until it is known which one). */
export const useDatabase = (instance: string, { enabled = true } = {}) =>
  useQuery({ queryKey: queryKeys.database(instance), queryFn: () => mgmt<Database>(databasePath(instance)), enabled });

/** Your role on a database and what it allows; both false while it loads. */
export const useDatabaseAccess = (instance: string) => {
  const role = useDatabase(instance).data?.role;
  return { role, write: can(role, "write"), admin: can(role, "admin") };
};

export const useCreateDatabase = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: DatabaseCreate) => mgmt<Database>("databases", { method: "POST", body: input }),
    // A new database counts against the plan and may spend a database credit.
    onSuccess: (db) => {
      qc.setQueryData(queryKeys.database(db.instance), db);
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: queryKeys.account }),
        qc.invalidateQueries({ queryKey: queryKeys.credits }),
      ]);
    },
  });
};

export const useRenameDatabase = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => mgmt<Database>(databasePath(instance), { method: "PATCH", body: { name } }),
    onSuccess: () =>
      Promise.all([qc.invalidateQueries({ queryKey: queryKeys.databases }), qc.invalidateQueries({ queryKey: queryKeys.database(instance) })]),
  });
};

export const useDeleteDatabase = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => mgmt<void>(databasePath(instance), { method: "DELETE" }),
    onSuccess: () => {
      qc.removeQueries({ queryKey: queryKeys.database(instance) });
      return Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: queryKeys.keys }),
        qc.invalidateQueries({ queryKey: queryKeys.account }),
      ]);
    },
  });
};
