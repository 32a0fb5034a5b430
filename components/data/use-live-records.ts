"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
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
 * table list's row counts. Paused, it closes the stream; Resume reloads at once and reopens the feed after the last
 * event seen, so writes made while paused (or between the reload and the reopen) are not missed.
 */
export const useLiveRecords = (instance: string, table: string, apiKey: string, paused: boolean): LiveState => {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  const feed = useRef({ key: "", lastId: "", wasPaused: false });
  useEffect(() => {
    const key = `${instance}\n${apiKey}`;
    if (feed.current.key !== key) feed.current = { key, lastId: "", wasPaused: false };
    if (paused) {
      feed.current.wasPaused = true;
      setState("paused");
      return;
    }
    setState("connecting");
    const { lastId, wasPaused } = feed.current;
    feed.current.wasPaused = false;
    const params = new URLSearchParams({ access_token: apiKey, ...(wasPaused && lastId ? { last_event_id: lastId } : {}) });
    const source = new EventSource(`/v1/${instance}/_changes?${params}`);
    const reloadGrid = () => void qc.invalidateQueries({ queryKey: queryKeys.records(instance, table) });
    const reloadCounts = () => void qc.invalidateQueries({ queryKey: rowCountsKey(instance) });
    const refreshGrid = coalesced(reloadGrid);
    const refreshCounts = coalesced(reloadCounts);
    const onChange = (action: string) => (e: MessageEvent<string>) => {
      if (e.lastEventId) feed.current.lastId = e.lastEventId;
      if ((JSON.parse(e.data) as { table?: string }).table === table) refreshGrid();
      if (action !== "update") refreshCounts();
    };
    if (wasPaused) (reloadGrid(), reloadCounts());
    source.onopen = () => {
      setState("live");
      // Without a resume point the feed starts at its open: a reload now covers what came before it.
      if (wasPaused && !lastId) (reloadGrid(), reloadCounts());
    };
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    for (const action of ["insert", "update", "delete"]) source.addEventListener(action, onChange(action));
    source.addEventListener("reset", (e: MessageEvent<string>) => {
      if (e.lastEventId) feed.current.lastId = e.lastEventId;
      refreshGrid();
      refreshCounts();
    });
    return () => {
      source.close();
      refreshGrid.cancel();
      refreshCounts.cancel();
    };
  }, [instance, table, apiKey, paused, qc]);
  return state;
};
