"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { AuditEntry } from "./types";

export type AuditFilter = { workspace?: number; database?: string; actor?: string; action?: string };

export const AUDIT_PAGE = 50;

const auditPath = (filter: AuditFilter, after?: number) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined && value !== "") params.set(name, String(value));
  params.set("_limit", String(AUDIT_PAGE));
  if (after !== undefined) params.set("_after", String(after));
  return `audit?${params}`;
};

/** The audit log newest first, a page at a time: the next page starts after the last entry's id. */
export const useAuditLog = (filter: AuditFilter) =>
  useInfiniteQuery({
    queryKey: queryKeys.audit(filter),
    queryFn: ({ pageParam }) => mgmt<AuditEntry[]>(auditPath(filter, pageParam)),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.length === AUDIT_PAGE ? last[last.length - 1].id : undefined),
  });
