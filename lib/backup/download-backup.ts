// GET …/backups/{id}/download: the archive streamed from the backup store as it is read.
import { conflict } from "../errors";
import { StreamedBody } from "../http/core-types";
import type { DbCtx } from "../meta/context";
import { backupStore } from "./backup-store";
import { getBackupRowOrThrow } from "./backup-jobs";

export const downloadBackup = async (ctx: DbCtx, { backup }: { instance: string; backup: number }) => {
  const row = await getBackupRowOrThrow(ctx, backup);
  if (row.status !== "done") throw conflict(`Backup ${backup} is ${row.status}; only a finished backup can be downloaded.`);
  const file = `${ctx.database.schema.instance}-${backup}.tar.gz`;
  const headers = { "content-type": "application/gzip", "content-disposition": `attachment; filename="${file}"`, "content-length": String(row.size) };
  return new StreamedBody(headers, async (sink) => {
    const stream = backupStore(ctx.app).open(row.location);
    sink.signal.addEventListener("abort", () => stream.destroy());
    for await (const chunk of stream) await sink.write(chunk as Buffer);
  });
};
