// Backups to S3: with the install's files in a bucket (s3rver on loopback), a backup's archive is uploaded to
// `backups/<database id>/<backup id>.tar.gz` and leaves no local copy; it downloads from the bucket and restores
// equal to its source; a pruned scheduled backup leaves the bucket.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupKey } from "../../lib/backup/backup-store";
import { pruneScheduled } from "../../lib/backup/backup-schedule";
import { openS3Store } from "../../lib/files/s3-store";
import { loadSchema } from "../../lib/meta/load-schema";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { type RunningS3, startS3rver } from "../helpers/s3rver";
import { download, dumpRows, makeKindsDatabase, restore, takeBackup } from "./backup-fixture";

describe.each(ENGINES)("backups to S3 on %s", (engine) => {
  let h: Harness;
  let s3: RunningS3;
  let db: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    h = await startHarness(engine, "node", { config: { s3: s3.config } });
    db = await makeKindsDatabase(h, "to the bucket");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await s3?.stop();
  });

  const locationOf = async (id: number) => (await h.app.engine.meta.selectFrom("backups").select("location").where("id", "=", id).executeTakeFirstOrThrow()).location;

  it("uploads the archive to the bucket, keeps no local copy, and restores from it equal to the source", async () => {
    const backup = await takeBackup(h, db);
    expect(backup.status, JSON.stringify(backup)).toBe("done");
    const location = await locationOf(backup.id);
    const key = backupKey(h.app.config.dataDir, location);
    const databaseId = (await loadSchema(h.app, db))!.id;
    expect(key).toBe(`backups/${databaseId}/${backup.id}.tar.gz`);
    const object = await openS3Store(s3.config).stat(key);
    expect(object?.size).toBe(backup.size);
    expect(fs.existsSync(location)).toBe(false);

    const archive = await download(h, db, backup.id);
    expect(archive.length).toBe(backup.size);
    const restored = await restore(h, "from the bucket", archive);
    expect(restored.status, restored.text).toBe(201);
    expect((await dumpRows(h, restored.body.instance)).rows).toEqual((await dumpRows(h, db)).rows);
  });

  it("a pruned scheduled backup is deleted from the bucket", async () => {
    const backup = await takeBackup(h, db);
    const key = backupKey(h.app.config.dataDir, await locationOf(backup.id));
    expect(await openS3Store(s3.config).stat(key)).not.toBeNull();
    await h.app.engine.meta.updateTable("backups").set({ scheduled: 1 }).where("id", "=", backup.id).execute();
    await pruneScheduled(h.app, (await loadSchema(h.app, db))!.id, 0);
    expect(await openS3Store(s3.config).stat(key)).toBeNull();
    expect((await h.request("GET", `/api/v1/databases/${db}/backups/${backup.id}`)).status).toBe(404);
  });
});
