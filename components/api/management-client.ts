import { readResponse } from "./api-error";

type Init = { method?: string; body?: unknown };

/** Calls the management API (`/api/v1/...`) with the dashboard session cookie. */
export const mgmt = async <T>(path: string, init: Init = {}): Promise<T> => {
  const res = await fetch(`/api/v1/${path}`, {
    method: init.method ?? "GET",
    credentials: "same-origin",
    headers: init.body === undefined ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return readResponse<T>(res, "management");
};

/** Calls the public session endpoints (`/api/session/...`): first-run status and sign-up. */
export const sessionApi = async <T>(path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`/api/session/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readResponse<T>(res, "session");
};

export const databasePath = (instance: string) => `databases/${encodeURIComponent(instance)}`;
export const tablePath = (instance: string, table: string) => `${databasePath(instance)}/tables/${encodeURIComponent(table)}`;
