/** The small request shape both adapters (node:http and the Next route handler) hand to the cores. */
export type CoreRequest = {
  method: string;
  /** Path without the query string, still percent-encoded. */
  pathname: string;
  query: URLSearchParams;
  /** The query string as sent, without `?` (to refuse escapes that are not UTF-8). */
  rawQuery?: string;
  /** Lower-case header name → value. */
  header: (name: string) => string | undefined;
  /** The body as text, or undefined when there is none. */
  body?: string;
  /** Set by the adapter when the body exceeded MAX_BODY_BYTES (it stops reading). */
  bodyTooLarge?: boolean;
  /** A multipart/form-data body, left unread for the upload path to stream (`body` is then undefined). */
  bodyStream?: NodeJS.ReadableStream;
  /** Origin the client used, e.g. http://localhost:3000 (for docs and absolute URLs). */
  origin: string;
  /** The client's network address (login rate limits); undefined when the adapter cannot know it. */
  clientAddress?: string;
  /** The request's id (X-Request-Id), carried into error logs. */
  requestId?: string;
};

export type CoreResponse = {
  status: number;
  headers: Record<string, string>;
  body?: string;
  /** A streamed body (the change feed): written until it returns or the client goes (`signal`). */
  stream?: (sink: StreamSink) => Promise<void>;
  /** A file's bytes (downloads, lib/files/serve.ts), piped with backpressure; destroyed if the client goes. */
  file?: NodeJS.ReadableStream;
};

/** Where a streamed body goes; `write` resolves once the client has taken the text (backpressure). */
export type StreamSink = { write: (text: string) => Promise<void>; signal: AbortSignal };

export const MAX_BODY_BYTES = 1_048_576;

/** Bodies the adapters leave unread: uploads, streamed to the file store as they arrive. */
export const isStreamedBody = (contentType: string | null | undefined) => /^multipart\/form-data\b/i.test(contentType ?? "");

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): CoreResponse => jsonText(status, JSON.stringify(value), headers);

/** A JSON answer whose text is already made (a list page shaped where it was read). */
export const jsonText = (status: number, body: string, headers: Record<string, string> = {}): CoreResponse => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body,
});

export const noContent = (headers: Record<string, string> = {}): CoreResponse => ({ status: 204, headers });
