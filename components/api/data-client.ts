import { readResponse } from "./api-error";

type Init = { method?: string; body?: unknown; headers?: Record<string, string> };

/** Calls the data API (`/v1/{instance}/...`) exactly as an app would: with a secret key in x-api-key. */
export const dataFetch = async (instance: string, pathAndQuery: string, key: string, init: Init = {}) => {
  const headers: Record<string, string> = { "x-api-key": key, ...init.headers };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return fetch(`/v1/${instance}/${pathAndQuery}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
};

export const dataRequest = async <T>(instance: string, pathAndQuery: string, key: string, init: Init = {}): Promise<T> =>
  readResponse<T>(await dataFetch(instance, pathAndQuery, key, init), "data");
