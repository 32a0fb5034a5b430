// A cluster of more than one API node keeps files in S3: with API_NODES above 1 and no S3_BUCKET, the app refuses
// to start (each node's DATA_DIR/files would hold uploads the others cannot serve); one node, or S3, starts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../lib/app";
import { readConfig } from "../../lib/config";

/** An environment of only these variables. */
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe("file storage on a cluster", () => {
  it("refuses to start with API_NODES=2 on local storage, naming S3_BUCKET", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-cluster-files-"));
    try {
      const config = readConfig(env({ DATA_DIR: dataDir, API_NODES: "2" }));
      expect(config.apiNodes).toBe(2);
      await expect(createApp(config)).rejects.toThrow(/API_NODES=2.*S3_BUCKET/);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("starts with one API node on local storage", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-cluster-files-"));
    try {
      const app = await createApp({ ...readConfig(env({ DATA_DIR: dataDir, API_NODES: "1" })), bcryptCost: 4 });
      await app.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reads FILE_MAX_BYTES, and refuses one that is not a whole number", () => {
    expect(readConfig(env({ FILE_MAX_BYTES: "1024" })).fileMaxBytes).toBe(1024);
    expect(() => readConfig(env({ FILE_MAX_BYTES: "lots" }))).toThrow(/FILE_MAX_BYTES/);
  });
});
