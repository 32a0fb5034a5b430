"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "../api/query-keys";

export type LiveState = "connecting" | "live" | "paused" | "offline";

/**
 * Follows the table's change feed (GET /v1/{db}/_changes, EventSource with the key as access_token) and
 * reloads the grid's page on each change; paused, it closes the stream (the next resume starts live).
 */
export const useLiveRecords = (instance: string, table: string, apiKey: string, paused: boolean): LiveState => {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(() => {
    if (paused) {
      setState("paused");
      return;
    }
    setState("connecting");
    const params = new URLSearchParams({ tables: table, access_token: apiKey });
    const source = new EventSource(`/v1/${instance}/_changes?${params}`);
    const refresh = () => void qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) });
    source.onopen = () => setState("live");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    for (const name of ["insert", "update", "delete", "reset"]) source.addEventListener(name, refresh);
    return () => source.close();
  }, [instance, table, apiKey, paused, qc]);
  return state;
};
