"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "../api/query-keys";
import { rowCountsKey } from "../api/use-records";

export type LiveState = "connecting" | "live" | "paused" | "offline";

/** Events arriving within this many ms are answered with one reload (a bulk write sends one per row). */
const COALESCE_MS = 150;

/** `fn` at most once per COALESCE_MS, after the first call of a burst; `cancel` drops a pending call. */
const coalesced = (fn: () => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      fn();
    }, COALESCE_MS);
  };
  return Object.assign(call, { cancel: () => clearTimeout(timer) });
};

/**
 * Follows the database's change feed (GET /v1/{db}/_changes, EventSource with the key as access_token): a change
 * to the shown table reloads the grid's page (and its summary), an insert or delete in any table reloads the
 * table list's row counts. Paused, it closes the stream (the next resume starts live).
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
    const source = new EventSource(`/v1/${instance}/_changes?${new URLSearchParams({ access_token: apiKey })}`);
    const refreshGrid = coalesced(() => void qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) }));
    const refreshCounts = coalesced(() => void qc.invalidateQueries({ queryKey: rowCountsKey(instance) }));
    const onChange = (action: string) => (e: MessageEvent<string>) => {
      if ((JSON.parse(e.data) as { table?: string }).table === table) refreshGrid();
      if (action !== "update") refreshCounts();
    };
    source.onopen = () => setState("live");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    for (const action of ["insert", "update", "delete"]) source.addEventListener(action, onChange(action));
    source.addEventListener("reset", () => (refreshGrid(), refreshCounts()));
    return () => {
      source.close();
      refreshGrid.cancel();
      refreshCounts.cancel();
    };
  }, [instance, table, apiKey, paused, qc]);
  return state;
};
