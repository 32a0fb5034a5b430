// Backups, restores, clones and definitions as code (docs/backups.md).
import { z } from "zod";
import { createBackup, getBackup, listBackups } from "../backup/backup-jobs";
import { getSchedule, putSchedule } from "../backup/backup-schedule";
import { cloneDatabase } from "../backup/clone-database";
import { applyDefinition, getDefinition, planDefinition } from "../backup/definition-service";
import { downloadBackup } from "../backup/download-backup";
import { restoreArchive } from "../backup/restore-archive";
import { Backup, BackupSchedule, BackupScheduleView, BackupStarted, CloneInput, Definition, DefinitionApply, DefinitionPlan, RestoreQuery } from "../contract/schemas/backups";
import { Database } from "../contract/schemas/databases";
import { defineRoute } from "./route";

const DB = "databases/:instance";
const BACKUPS = `${DB}/backups`;

export const BACKUP_ROUTES = [
  defineRoute({
    method: "POST", path: BACKUPS, permission: "database:admin", tag: "Backups", operationId: "createBackup",
    summary: "Back up a database", description: "Starts a backup: one consistent point in time of the definition and every row, written in the background (poll `GET …/backups/{id}`).",
    status: 202, response: BackupStarted,
    run: (ctx, { instance }) => createBackup(ctx, { instance }),
  }),
  defineRoute({
    method: "GET", path: BACKUPS, permission: "database:admin", tag: "Backups", operationId: "listBackups",
    summary: "List backups", description: "The database's backups, newest first.",
    status: 200, response: z.array(Backup),
    run: (ctx, { instance }) => listBackups(ctx, { instance }),
  }),
  defineRoute({
    method: "GET", path: `${BACKUPS}/schedule`, permission: "database:admin", tag: "Backups", operationId: "getBackupSchedule",
    summary: "Get the backup schedule", description: "How often backups are taken and how many scheduled ones are kept (`every_hours: null`: off).",
    status: 200, response: BackupScheduleView,
    run: (ctx, { instance }) => getSchedule(ctx, { instance }),
  }),
  defineRoute({
    method: "PUT", path: `${BACKUPS}/schedule`, permission: "database:admin", tag: "Backups", operationId: "putBackupSchedule",
    summary: "Set the backup schedule", description: "A backup every `every_hours`, keeping the newest `keep` scheduled backups; `every_hours: null` turns it off.",
    body: BackupSchedule, status: 200, response: BackupScheduleView,
    run: (ctx, { instance, body }) => putSchedule(ctx, { instance, body }),
  }),
  defineRoute({
    method: "GET", path: `${BACKUPS}/:backup`, permission: "database:admin", tag: "Backups", operationId: "getBackup",
    summary: "Get a backup", description: "Its status (`running`, `done`, `failed` with `error`), size, tables, rows and the last change event it includes.",
    status: 200, response: Backup,
    run: (ctx, { instance, backup }) => getBackup(ctx, { instance, backup }),
  }),
  defineRoute({
    method: "GET", path: `${BACKUPS}/:backup/download`, permission: "database:admin", tag: "Backups", operationId: "downloadBackup",
    summary: "Download a backup", description: "The archive (gzip'd tar: manifest.json, definition.json, tables/*.jsonl), streamed. A backup not done is 409.",
    binary: "response", errors: ["conflict"], status: 200, response: z.string(),
    run: (ctx, { instance, backup }) => downloadBackup(ctx, { instance, backup }),
  }),
  defineRoute({
    method: "POST", path: "databases/restore", permission: "workspace:write", workspaceFrom: "query", tag: "Backups", operationId: "restoreBackup",
    summary: "Restore a backup as a new database", description: "The archive is the body (either engine's). A damaged, foreign, newer or cut-short archive is 422 naming the problem, and nothing is created. A name already used in the workspace (or being restored) is 409.",
    binary: "body", query: RestoreQuery, errors: ["conflict"], status: 201, response: Database, quota: "databases",
    run: (ctx, { query, archive }) => restoreArchive(ctx, { name: query.name.trim(), archive: archive! }),
  }),
  defineRoute({
    method: "POST", path: `${DB}/clone`, permission: "database:admin", noDatabaseKeys: true, tag: "Backups", operationId: "cloneDatabase",
    summary: "Clone a database", description: "A new database in the same workspace with this one's definition and, unless `data` is false, its rows from one point in time. A name already used in the workspace is 409.",
    body: CloneInput, errors: ["conflict"], status: 201, response: Database, quota: "databases",
    run: (ctx, { instance, body }) => cloneDatabase(ctx, { instance, body: { name: body.name.trim(), data: body.data } }),
  }),
  defineRoute({
    method: "GET", path: `${DB}/definition`, permission: "database:read", tag: "Backups", operationId: "getDefinition",
    summary: "Get the definition", description: "Tables (columns, indexes, policies, hooks), joins and auth settings as JSON, as in a backup; never a secret.",
    status: 200, response: Definition,
    run: (ctx, { instance }) => getDefinition(ctx, { instance }),
  }),
  defineRoute({
    method: "POST", path: `${DB}/definition/plan`, permission: "database:read", tag: "Backups", operationId: "planDefinition",
    summary: "Plan a definition", description: "The ordered changes that would make this database match the definition, lossy ones flagged. The same definition as the database's is an empty plan.",
    body: Definition, status: 200, response: DefinitionPlan,
    run: (ctx, { instance, body }) => planDefinition(ctx, { instance, body }),
  }),
  defineRoute({
    method: "POST", path: `${DB}/definition/apply`, permission: "database:admin", tag: "Backups", operationId: "applyDefinition",
    summary: "Apply a definition", description: "Runs the plan, change by change, through the same checks as each change by hand. A plan with lossy changes is 422 unless `allow_lossy` is true.",
    body: DefinitionApply, errors: ["conflict"], status: 200, response: DefinitionPlan,
    run: (ctx, { instance, body }) => applyDefinition(ctx, { instance, body }),
  }),
];
