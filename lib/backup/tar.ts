// A small streaming tar (POSIX ustar) writer and reader: the backup archive's container, so a backup of any
// size passes through in chunks and no entry sits whole in memory.
import { ApiError } from "../errors";

const BLOCK = 512;
export const TAR_END = Buffer.alloc(BLOCK * 2);

const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, "0") + "\0";

/** A name past 100 bytes split at a `/` into ustar's prefix (up to 155 bytes) and name fields. */
const splitName = (name: string): [string, string] => {
  if (Buffer.byteLength(name) <= 100) return ["", name];
  for (let cut = name.indexOf("/"); cut > 0; cut = name.indexOf("/", cut + 1)) {
    const [prefix, rest] = [name.slice(0, cut), name.slice(cut + 1)];
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return [prefix, rest];
  }
  throw new Error(`tar entry name too long: ${name}`);
};

/** The 512-byte header of one regular file of `size` bytes (names up to 256 bytes, split at a `/`). */
export const tarHeader = (fullName: string, size: number, mtime = 0): Buffer => {
  const header = Buffer.alloc(BLOCK);
  const [prefix, name] = splitName(fullName);
  header.write(name, 0, 100, "utf8");
  header.write(prefix, 345, 155, "utf8");
  header.write(octal(0o644, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(Math.floor(mtime / 1000), 12), 136);
  header.write("        ", 148); // checksum field counts as spaces
  header.write("0", 156);
  header.write("ustar\0", 257);
  header.write("00", 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + " ", 148);
  return header;
};

/** Zero bytes that close an entry of `size` bytes to a whole block. */
export const tarPadding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

export const archiveProblem = (message: string) => new ApiError("validation_failed", message, { errors: [{ field: "body", code: "invalid_archive", message }] });

/** Pulls exact byte counts out of a chunked source. */
class ByteReader {
  private pending: Buffer[] = [];
  private buffered = 0;
  private done = false;
  constructor(private readonly source: AsyncIterator<Buffer | Uint8Array>) {}

  private async fill(n: number) {
    while (this.buffered < n && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else {
        const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
        this.pending.push(chunk);
        this.buffered += chunk.length;
      }
    }
  }

  /** Up to `max` bytes (at least one unless the source ended). */
  async some(max: number): Promise<Buffer | null> {
    await this.fill(1);
    if (this.buffered === 0) return null;
    const first = this.pending[0];
    if (first.length <= max) {
      this.pending.shift();
      this.buffered -= first.length;
      return first;
    }
    this.pending[0] = first.subarray(max);
    this.buffered -= max;
    return first.subarray(0, max);
  }

  /** Exactly `n` bytes, or null when the source ended before them. */
  async exact(n: number): Promise<Buffer | null> {
    await this.fill(n);
    if (this.buffered < n) return null;
    const all = Buffer.concat(this.pending);
    this.pending = all.length > n ? [all.subarray(n)] : [];
    this.buffered -= n;
    return all.subarray(0, n);
  }
}

export type TarEntry = { name: string; size: number; body: AsyncIterable<Buffer> };

const parseOctal = (field: Buffer) => {
  const text = field.toString("latin1").replace(/\0.*$/s, "").trim();
  if (!/^[0-7]+$/.test(text)) return NaN;
  return parseInt(text, 8);
};

const checksumOk = (header: Buffer) => {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  return sum === parseOctal(header.subarray(148, 156));
};

/**
 * The entries of a tar stream in order; each entry's body must be read (or left) before the next is asked for.
 * A header that is not tar, or a stream that ends inside an entry or before the end blocks, is a 422.
 */
export async function* readTar(source: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  for (;;) {
    const header = await reader.exact(BLOCK);
    if (!header) throw archiveProblem("The archive is cut short: it ends before its last entry.");
    if (header.every((b) => b === 0)) return;
    if (!checksumOk(header)) throw archiveProblem("The archive is damaged or not a Tabula backup (a tar header does not check out).");
    const short = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const prefix = header.subarray(257, 263).toString("latin1") === "ustar\0" ? header.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "") : "";
    const name = prefix ? `${prefix}/${short}` : short;
    const size = parseOctal(header.subarray(124, 136));
    if (!Number.isSafeInteger(size)) throw archiveProblem(`The archive is damaged: entry ${name} has no valid size.`);
    let left = size;
    const body = (async function* () {
      while (left > 0) {
        const chunk = await reader.some(Math.min(left, 1 << 16));
        if (!chunk) throw archiveProblem(`The archive is cut short inside ${name}.`);
        left -= chunk.length;
        yield chunk;
      }
    })();
    yield { name, size, body };
    for await (const _ of body) void _; // an entry the caller skipped
    if (left > 0) throw archiveProblem(`The archive is cut short inside ${name}.`);
    const pad = tarPadding(size).length;
    if (pad && !(await reader.exact(pad))) throw archiveProblem(`The archive is cut short after ${name}.`);
  }
}
