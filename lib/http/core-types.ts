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
  /**
   * The body unread, as it arrives (`body` is then undefined): a multipart/form-data upload, streamed to the
   * file store, or a backup archive on a path that takes one (`takesStreamedBody`).
   */
  bodyStream?: NodeJS.ReadableStream & AsyncIterable<Uint8Array>;
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

/** Where a streamed body goes; `write` resolves once the client has taken the text or bytes (backpressure). */
export type StreamSink = { write: (chunk: string | Uint8Array) => Promise<void>; signal: AbortSignal };

/** What a service answers for a streamed download (a backup archive): the handler sends it as it is. */
export class StreamedBody {
  constructor(
    readonly headers: Record<string, string>,
    readonly stream: NonNullable<CoreResponse["stream"]>,
  ) {}
}

/** Paths whose body is read as a stream instead of as JSON text under MAX_BODY_BYTES: POST /api/v1/databases/restore. */
export const takesStreamedBody = (method: string, pathname: string) => method === "POST" && /^\/api\/v1\/databases\/restore\/?$/.test(pathname);

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
