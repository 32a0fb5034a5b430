// A real S3-compatible server for tests: s3rver on loopback, on a free port, over a temporary folder, with one
// bucket made. `config` is what the S3 driver (lib/files/s3-store.ts) takes; `requests` logs "METHOD url" of every
// request it got; `stop` closes it and removes the folder. s3rver 3 lacks three multipart calls that tus's S3 store
// makes (ListParts, ListMultipartUploads, AbortMultipartUpload); they are answered here from s3rver's own folder
// of parts, the way S3 answers them.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { S3Config } from "@/lib/config";

export type RunningS3 = { config: S3Config; endpoint: string; directory: string; requests: string[]; stop: () => Promise<void> };

const xml = (res: http.ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};
const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** ListParts, ListMultipartUploads and AbortMultipartUpload over s3rver's parts folder; false for anything else. */
const answerMultipart = (req: http.IncomingMessage, res: http.ServerResponse, bucket: string, uploadsDir: string) => {
  const url = new URL(req.url ?? "/", "http://s3");
  const uploadId = url.searchParams.get("uploadId");
  const inBucket = url.pathname.startsWith(`/${bucket}/`);
  const key = decodeURIComponent(url.pathname.slice(bucket.length + 2));
  if (req.method === "GET" && url.pathname.replace(/\/$/, "") === `/${bucket}` && url.searchParams.has("uploads")) {
    const prefix = url.searchParams.get("prefix") ?? "";
    const uploads = (fs.existsSync(uploadsDir) ? fs.readdirSync(uploadsDir) : []).flatMap((id) => {
      const keyFile = path.join(uploadsDir, id, "key");
      if (!fs.existsSync(keyFile)) return [];
      const uploadKey = fs.readFileSync(keyFile, "utf8");
      if (!uploadKey.startsWith(prefix)) return [];
      return [`<Upload><Key>${esc(uploadKey)}</Key><UploadId>${id}</UploadId><Initiated>${fs.statSync(keyFile).mtime.toISOString()}</Initiated></Upload>`];
    });
    xml(res, 200, `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`);
    return true;
  }
  if (!inBucket || !uploadId || (req.method !== "GET" && req.method !== "DELETE")) return false;
  const dir = path.join(uploadsDir, uploadId);
  if (!fs.existsSync(dir)) {
    xml(res, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`);
    return true;
  }
  if (req.method === "DELETE") {
    fs.rmSync(dir, { recursive: true, force: true });
    res.writeHead(204).end();
    return true;
  }
  const parts = fs
    .readdirSync(dir)
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .sort((a, b) => a - b)
    .map((n) => {
      const md5 = fs.readFileSync(path.join(dir, `${n}.md5`), "utf8");
      return `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${fs.statSync(path.join(dir, String(n))).size}</Size></Part>`;
    });
  xml(res, 200, `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`);
  return true;
};

/** s3rver over `directory` on `port` (0: a free one) with `bucket` made, plus the multipart calls it lacks. */
export const serveS3rver = async ({ directory, port = 0, bucket = "tabula-files" }: { directory: string; port?: number; bucket?: string }) => {
  const { default: S3rver } = await import("s3rver");
  const app = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await app.configureBuckets();
  const handle = app.callback();
  const requests: string[] = [];
  const uploadsDir = path.join(directory, bucket, "._S3rver_uploads");
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (!answerMultipart(req, res, bucket, uploadsDir)) handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: S3Config = { bucket, endpoint, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true };
  return { server, endpoint, requests, config };
};

export const startS3rver = async (bucket = "tabula-files"): Promise<RunningS3> => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-s3rver-"));
  const { server, endpoint, requests, config } = await serveS3rver({ directory, bucket });
  return {
    endpoint,
    directory,
    requests,
    config,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
};
