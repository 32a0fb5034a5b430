// A file's content type from its first bytes, never from the client's claim: file-type's magic numbers, then
// text (UTF-8 without NUL) refined to the markup a browser would run, else application/octet-stream.
import { PassThrough, Readable } from "node:stream";

/** How many leading bytes sniffType needs to see. */
export const SNIFF_BYTES = 4100;

const MARKUP: [RegExp, string][] = [
  [/^<svg[\s>]/i, "image/svg+xml"],
  [/^<!doctype\s+html|^<(html|head|body|script|iframe|div|p|a|meta|title|style|img)[\s>/]/i, "text/html"],
  [/^<\?xml[\s?]/i, "application/xml"],
];

const textType = (bytes: Uint8Array): string | undefined => {
  if (bytes.includes(0)) return undefined;
  // A multi-byte character cut at the end of the window is still text.
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) if ((bytes[end - back] & 0xc0) !== 0x80) {
    if (bytes[end - back] >= 0xc0) end -= back;
    break;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
  const head = text.replace(/^\uFEFF/, "").replace(/^(\s|<!--[\s\S]*?-->)*/, "");
  if (/^<\?xml[\s?]/i.test(head) && /<svg[\s>]/i.test(text)) return "image/svg+xml";
  return MARKUP.find(([pattern]) => pattern.test(head))?.[1] ?? "text/plain";
};

/** The MIME type of a file whose first bytes (up to SNIFF_BYTES) are `firstBytes`. */
export const sniffType = async (firstBytes: Uint8Array): Promise<string> => {
  if (firstBytes.length === 0) return "application/octet-stream";
  const { fileTypeFromBuffer } = await import("file-type");
  const found = (await fileTypeFromBuffer(firstBytes))?.mime;
  // file-type names any XML document XML; an SVG is the one a browser would run.
  if (found && /xml$/.test(found)) return textType(firstBytes) === "image/svg+xml" ? "image/svg+xml" : found;
  return found ?? textType(firstBytes) ?? "application/octet-stream";
};

/**
 * Reads the first SNIFF_BYTES of `body` and sniffs them; `body` is the whole stream again (those bytes, then the
 * rest), ready for FileStore.put. Nothing past the first bytes is held.
 */
export const sniffBody = async (source: NodeJS.ReadableStream): Promise<{ type: string; body: Readable }> => {
  const input = source instanceof Readable ? source : new Readable().wrap(source);
  const head: Buffer[] = [];
  let length = 0;
  await new Promise<void>((resolve, reject) => {
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < SNIFF_BYTES && (chunk = input.read() as Buffer | null) !== null) {
        head.push(chunk);
        length += chunk.length;
      }
      if (length >= SNIFF_BYTES) done();
    };
    const done = (error?: Error) => {
      input.off("readable", onReadable).off("end", onEnd).off("error", done);
      if (error) reject(error);
      else resolve();
    };
    const onEnd = () => done();
    input.on("readable", onReadable).once("end", onEnd).once("error", done);
  });
  const first = Buffer.concat(head);
  const body = new PassThrough();
  body.write(first);
  if (input.readableEnded) body.end();
  else {
    // An input that fails (a client gone mid-upload) fails the body; whoever reads it next sees body.errored.
    body.on("error", () => undefined);
    input.on("error", (error) => body.destroy(error));
    input.pipe(body);
  }
  return { type: await sniffType(first.subarray(0, SNIFF_BYTES)), body };
};
