// A real S3-compatible server for tests: s3rver on loopback, on a free port, over a temporary folder, with one
// bucket made. `config` is what the S3 driver (lib/files/s3-store.ts) takes; `requests` logs "METHOD url" of every
// request it got (s3rver keeps the parts of an aborted multipart upload, so tests check the abort was sent);
// `stop` closes it and removes the folder.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { S3Config } from "@/lib/config";

export type RunningS3 = { config: S3Config; endpoint: string; directory: string; requests: string[]; stop: () => Promise<void> };

export const startS3rver = async (bucket = "tabula-files"): Promise<RunningS3> => {
  const { default: S3rver } = await import("s3rver");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-s3rver-"));
  const app = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] });
  await app.configureBuckets();
  const handle = app.callback();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    directory,
    requests,
    config: { bucket, endpoint, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER", forcePathStyle: true },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
};
