// Counts and hashes a body as it streams, failing with FileTooLarge the moment it passes its limit. The source
// is piped, not owned: after a failure it is drained rather than destroyed, so a multipart parser feeding it can
// carry on and the request can still be answered.
import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { FileTooLarge } from "./file-store";

export type Meter = { stream: Transform; result: () => { size: number; sha256: string }; release: (failed: boolean) => void };

export const meterBody = (body: NodeJS.ReadableStream, maxBytes?: number): Meter => {
  const hash = createHash("sha256");
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) return done(new FileTooLarge(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const onError = (error: Error) => stream.destroy(error);
  body.on("error", onError);
  body.pipe(stream);
  // A body that failed before it reached here (its error already emitted) fails the put now.
  const failed = (body as NodeJS.ReadableStream & { errored?: Error | null }).errored;
  if (failed) stream.destroy(failed);
  return {
    stream,
    result: () => ({ size, sha256: hash.digest("hex") }),
    release: (failed) => {
      body.removeListener("error", onError);
      if (!failed) return;
      body.unpipe(stream);
      body.on("error", () => {});
      body.resume();
    },
  };
};
