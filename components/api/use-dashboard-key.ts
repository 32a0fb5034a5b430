"use client";
import { useEffect, useRef } from "react";
import { useCreateKey, useKeys } from "./use-keys";
import type { ApiKey } from "./types";

export const DASHBOARD_KEY_NAME = "Dashboard";

/** The key the dashboard calls the data API with: one valid for this database, preferring "Dashboard". */
export const pickDashboardKey = (keys: ApiKey[], instance?: string) => {
  const usable = keys.filter((k) => k.database === null || (instance !== undefined && k.database === instance));
  return usable.find((k) => k.name === DASHBOARD_KEY_NAME && k.database === null) ?? usable.find((k) => k.database === null) ?? usable[0];
};

/**
 * The data API key for the data browser and the docs. The dashboard holds no key of its own: it uses one of
 * the user's keys, and creates an account-wide "Dashboard" key when the account has none.
 */
export const useDashboardKey = (instance?: string) => {
  const keys = useKeys();
  const create = useCreateKey();
  const asked = useRef(false);
  const key = keys.data ? pickDashboardKey(keys.data, instance) : undefined;
  const mutate = create.mutate;
  useEffect(() => {
    if (!keys.data || key || asked.current) return;
    asked.current = true;
    mutate({ name: DASHBOARD_KEY_NAME, database: null });
  }, [keys.data, key, mutate]);
  return {
    key,
    isLoading: keys.isLoading || (!!keys.data && !key && !create.isError),
    error: keys.error ?? create.error,
    refetch: keys.refetch,
  };
};
