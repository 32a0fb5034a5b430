// The S3 driver: files as objects of one bucket of any S3-compatible service. A put holds at most one 8 MiB part
// in memory: a body that fits in one part is one PutObject, a longer one a multipart upload that is aborted on
// failure, so a failed or refused put leaves nothing. The SDK loads on first use.
import type { S3Client } from "@aws-sdk/client-s3";
import { type Readable, Transform } from "node:stream";
import type { S3Config } from "../config";
import type { FileStore, StoredObject } from "./file-store";
import { checkKey, checkPrefix } from "./keys";
import { meterBody } from "./meter";

/** Part size of multipart uploads (S3 wants at least 5 MiB for every part but the last). */
export const PART_BYTES = 8 * 1024 * 1024;

/** Passes the first `n` bytes, then ends. */
const limitBytes = (n: number) => {
  let left = n;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const take = chunk.subarray(0, Math.max(0, left));
      left -= take.length;
      done(null, take.length > 0 ? take : undefined);
    },
  });
};

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

export const openS3Store = (config: S3Config): FileStore => {
  const Bucket = config.bucket;
  let opened: Promise<{ s3: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | undefined;
  const open = () =>
    (opened ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
        // S3-compatible services often lack the newer default checksums; send them only where S3 requires one.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      }),
    })));

  return {
    kind: "s3",

    async put(key, body, { contentType, maxBytes }) {
      checkKey(key);
      const { s3, sdk } = await open();
      const meter = meterBody(body, maxBytes);
      const part = Buffer.allocUnsafe(PART_BYTES);
      let filled = 0;
      let uploadId: string | undefined;
      const parts: { ETag?: string; PartNumber: number }[] = [];
      const sendPart = async (bytes: Buffer) => {
        uploadId ??= (await s3.send(new sdk.CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }))).UploadId!;
        const PartNumber = parts.length + 1;
        const { ETag } = await s3.send(new sdk.UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: bytes, ContentLength: bytes.length }));
        parts.push({ ETag, PartNumber });
      };
      let failed = true;
      try {
        for await (const chunk of meter.stream as AsyncIterable<Buffer>) {
          for (let offset = 0; offset < chunk.length; ) {
            const n = Math.min(PART_BYTES - filled, chunk.length - offset);
            chunk.copy(part, filled, offset, offset + n);
            filled += n;
            offset += n;
            if (filled === PART_BYTES) {
              await sendPart(part);
              filled = 0;
            }
          }
        }
        const rest = part.subarray(0, filled);
        if (uploadId === undefined) {
          await s3.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: rest, ContentLength: rest.length, ContentType: contentType }));
        } else {
          if (filled > 0) await sendPart(rest);
          await s3.send(new sdk.CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
        }
        failed = false;
      } finally {
        meter.release(failed);
        if (failed && uploadId) await s3.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId })).catch(() => {});
      }
      return meter.result();
    },

    async get(key, range) {
      checkKey(key);
      const { s3, sdk } = await open();
      try {
        const out = await s3.send(new sdk.GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        const total = out.ContentRange ? Number(out.ContentRange.split("/")[1]) : Number(out.ContentLength ?? 0);
        const body = out.Body as Readable;
        // Some S3-compatible services widen a range (s3rver reads `bytes=0-0` as the whole object): cut it back.
        const sentEnd = Number(/-(\d+)\//.exec(out.ContentRange ?? "")?.[1]);
        return { body: range && sentEnd > range.end ? body.pipe(limitBytes(range.end - range.start + 1)) : body, size: total };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async stat(key) {
      checkKey(key);
      const { s3, sdk } = await open();
      try {
        const out = await s3.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(out.ContentLength ?? 0), modified: out.LastModified ?? new Date(0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(keys) {
      keys.forEach(checkKey);
      if (keys.length === 0) return;
      const { s3, sdk } = await open();
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        const out = await s3.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        const failures = (out.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
        if (failures.length > 0) throw new Error(`S3 refused to delete ${failures.length} object(s): ${failures[0].Code} ${failures[0].Message ?? ""}`);
      }
    },

    async *list(prefix): AsyncGenerator<StoredObject> {
      checkPrefix(prefix);
      const { s3, sdk } = await open();
      let ContinuationToken: string | undefined;
      do {
        const out = await s3.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix || undefined, ContinuationToken }));
        for (const item of out.Contents ?? []) {
          if (item.Key) yield { key: item.Key, size: Number(item.Size ?? 0), modified: item.LastModified ?? new Date(0) };
        }
        ContinuationToken = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
};
