"use client";
import { useEffect, useRef } from "react";
import { useCreateKey, useKeys } from "./use-keys";
import type { ApiKey } from "./types";

export const DASHBOARD_KEY_NAME = "Dashboard";

/**
 * The key the dashboard calls the data API with: its own account-wide "Dashboard" key, the oldest if there
 * are several, never another of the user's keys (revoking a CI key must not change what the dashboard uses).
 */
export const pickDashboardKey = (keys: ApiKey[]) =>
  keys.filter((k) => k.name === DASHBOARD_KEY_NAME && k.database === null).reduce<ApiKey | undefined>((a, k) => (a && a.id < k.id ? a : k), undefined);

/**
 * The data API key for the data browser and the docs: the account's "Dashboard" key, created on first need
 * and created again when it was revoked.
 */
export const useDashboardKey = () => {
  const keys = useKeys();
  const create = useCreateKey();
  const asked = useRef(false);
  const key = keys.data ? pickDashboardKey(keys.data) : undefined;
  const mutate = create.mutate;
  useEffect(() => {
    if (key) asked.current = false;
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
