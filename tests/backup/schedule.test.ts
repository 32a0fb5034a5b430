// Scheduled backups: the schedule is stored and shown, a due schedule starts one backup (taken once even when
// two passes run at once), and scheduled backups past `keep` are deleted with their archives.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleBackups } from "../../lib/backup/backup-jobs";
import { runDueSchedules } from "../../lib/backup/backup-schedule";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";

describe.each(ENGINES)("backup schedules on %s", (engine) => {
  let h: Harness;
  let db: string;

  beforeAll(async () => {
    h = await startHarness(engine, "node");
    db = await createDatabase(h, "scheduled", [{ name: "notes", columns: [{ name: "text", type: "text" }] }] as never);
  });
  afterAll(() => h.close());

  it("refuses a schedule out of range naming the field", async () => {
    const reply = await h.request("PUT", `/api/v1/databases/${db}/backups/schedule`, { body: { every_hours: 0, keep: 3 } });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.map((e: { field: string }) => e.field)).toEqual(["every_hours"]);
  });

  it("runs due schedules once each and keeps the newest `keep` scheduled backups", async () => {
    const put = await h.request("PUT", `/api/v1/databases/${db}/backups/schedule`, { body: { every_hours: 1, keep: 2 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ every_hours: 1, keep: 2 });
    const manual = await h.request("POST", `/api/v1/databases/${db}/backups`);
    expect(manual.status).toBe(202);
    let now = Date.now();
    for (let i = 0; i < 4; i++) {
      now += 2 * 3_600_000;
      await Promise.all([runDueSchedules(h.app, new Date(now)), runDueSchedules(h.app, new Date(now))]);
      await settleBackups(h.app);
    }
    const list = (await h.request("GET", `/api/v1/databases/${db}/backups`)).body as { id: number; scheduled: boolean; status: string }[];
    expect(list.filter((b) => b.scheduled).length).toBe(2);
    expect(list.filter((b) => !b.scheduled).map((b) => b.id)).toEqual([manual.body.id]);
    expect(list.every((b) => b.status === "done")).toBe(true);
    const rows = await h.app.engine.meta.selectFrom("backups").select("location").execute();
    const files = fs.readdirSync(`${h.app.config.dataDir}/backups/${rows.length ? (await h.app.engine.meta.selectFrom("databases").select("id").where("instance", "=", db).executeTakeFirstOrThrow()).id : 0}`);
    expect(files.length).toBe(3);
  });

  it("turns off with every_hours null", async () => {
    const off = await h.request("PUT", `/api/v1/databases/${db}/backups/schedule`, { body: { every_hours: null, keep: 2 } });
    expect(off.body).toEqual({ every_hours: null, keep: 7, next_at: null });
  });
});
