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

/**
 * A write with files: `multipart/form-data` through XMLHttpRequest, whose upload events report how much of the
 * body has gone (fetch has none); `onProgress` gets 0…1 and 1 once the whole body is sent.
 */
export const dataUpload = <T>(instance: string, pathAndQuery: string, key: string, method: string, form: FormData, onProgress: (sent: number) => void) =>
  new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/v1/${instance}/${pathAndQuery}`);
    xhr.setRequestHeader("x-api-key", key);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.total ? e.loaded / e.total : 1);
    xhr.upload.onload = () => onProgress(1);
    xhr.onerror = () => reject(new Error("The upload failed: the connection was lost."));
    xhr.onload = () => {
      onProgress(1);
      const res = new Response(xhr.status === 204 ? null : xhr.responseText, { status: xhr.status, headers: { "content-type": xhr.getResponseHeader("content-type") ?? "" } });
      readResponse<T>(res, "data").then(resolve, reject);
    };
    xhr.send(form);
  });
