"use client";
import { useMutation } from "@tanstack/react-query";
import type { SqlResult } from "@/lib/contract/schemas/sql";
import { databasePath, mgmt } from "./management-client";

export type SqlAnswer = SqlResult;

/** Runs one read-only SELECT in the SQL console (owners and admins). */
export const useRunSql = (instance: string) =>
  useMutation({ mutationFn: (sql: string) => mgmt<SqlAnswer>(`${databasePath(instance)}/sql`, { method: "POST", body: { sql } }) });
