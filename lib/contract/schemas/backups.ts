// Backups, restores, clones and definitions as code: their input and output (docs/backups.md).
import { z } from "zod";
import { AuthSettingsInput, PoliciesInput } from "./auth";
import { component, Timestamp, WorkspaceParam } from "./common";
import { DatabaseName, TableInput } from "./databases";
import { HooksInput } from "./hooks";
import { JoinInput } from "./joins";

export const Backup = component(
  "Backup",
  z
    .object({
      id: z.int(),
      status: z.enum(["running", "done", "failed"]),
      size: z.int().nullable().meta({ description: "Bytes of the archive once done." }),
      tables: z.int().nullable(),
      rows: z.int().nullable(),
      event_id: z.int().nullable().meta({ description: "The last change event the backup includes." }),
      error: z.string().nullable(),
      scheduled: z.boolean(),
      created_at: Timestamp,
      finished_at: Timestamp.nullable(),
    })
    .meta({ example: { id: 3, status: "done", size: 18234, tables: 2, rows: 120, event_id: 481, error: null, scheduled: false, created_at: "2024-05-01T12:00:00.000Z", finished_at: "2024-05-01T12:00:01.000Z" } }),
);

export const BackupStarted = component("BackupStarted", z.object({ id: z.int(), status: z.literal("running") }).meta({ example: { id: 3, status: "running" } }));

export const BackupSchedule = component(
  "BackupSchedule",
  z
    .strictObject({
      every_hours: z.int().min(1).max(24 * 30).nullable().meta({ description: "Hours between backups; null turns the schedule off." }),
      keep: z.int().min(1).max(365).meta({ description: "Scheduled backups kept; older ones are deleted." }),
    })
    .meta({ example: { every_hours: 24, keep: 7 } }),
);

export const BackupScheduleView = component(
  "BackupScheduleView",
  z.object({ every_hours: z.int().nullable(), keep: z.int(), next_at: Timestamp.nullable() }).meta({ example: { every_hours: 24, keep: 7, next_at: "2024-05-02T12:00:00.000Z" } }),
);

export const RestoreQuery = z.object({
  name: DatabaseName.meta({ description: "The new database's display name; one taken in the workspace is 409." }),
  workspace: WorkspaceParam("The owner's account id of the workspace to restore into (you must be an editor or admin there); default your own."),
});

export const CloneInput = component(
  "CloneInput",
  z.strictObject({ name: DatabaseName, data: z.boolean().optional().meta({ default: true, description: "Copy the rows too (false: the definition only)." }) }).meta({ example: { name: "Shop (test)", data: false } }),
);

const DefinitionTable = TableInput.and(z.object({ policies: PoliciesInput.optional(), hooks: HooksInput.optional() }));

export const Definition = component(
  "Definition",
  z
    .looseObject({
      format: z.literal("tabula-definition").optional(),
      version: z.int().min(1).optional(),
      tables: z.array(z.looseObject({ name: z.string() })).meta({ description: "Tables in creation order: TableInput with `policies` and `hooks`." }),
      joins: z.array(z.looseObject({ name: z.string() })).optional().meta({ description: "JoinInput each." }),
      auth: AuthSettingsInput.optional(),
    })
    .meta({
      description: "A database's definition: tables (columns, indexes, policies, hooks), joins and auth settings, never a secret.",
      example: { format: "tabula-definition", version: 1, tables: [{ name: "products", columns: [{ name: "title", type: "varchar", nullable: false, unique: false }], indexes: [], policies: {}, hooks: {} }], joins: [], auth: { enabled: false } },
    }),
);

/** The strict parts of a definition, checked table by table so a problem names its place. */
export const DEFINITION_PARTS = { table: DefinitionTable, join: JoinInput, auth: AuthSettingsInput };

export const DefinitionApply = component(
  "DefinitionApply",
  Definition.and(z.object({ allow_lossy: z.boolean().optional().meta({ default: false, description: "Apply changes that drop tables, columns or data." }) })).meta({
    example: { format: "tabula-definition", version: 1, tables: [{ name: "products", columns: [{ name: "title", type: "varchar", nullable: false, unique: false }], indexes: [], policies: {}, hooks: {} }], joins: [], auth: { enabled: false }, allow_lossy: false },
  }),
);

export const PlannedChange = component(
  "PlannedChange",
  z.object({
    action: z.string().meta({ example: "column.add" }),
    target: z.string().meta({ example: "products.price" }),
    lossy: z.boolean(),
    detail: z.string(),
  }),
);

export const DefinitionPlan = component("DefinitionPlan", z.object({ changes: z.array(PlannedChange), lossy: z.boolean() }));
