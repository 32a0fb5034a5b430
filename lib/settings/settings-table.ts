import type { Kysely } from "kysely";
import type { MetaDb } from "../db/meta-schema";

/** Install-wide settings the operator changes from the dashboard: one row per setting (migration 0002). */
export type SettingsTable = { name: string; value: string };

/** The metadata handle, widened with the settings table (lib/db/meta-schema.ts is shared; we add, not edit). */
export const settingsDb = (meta: Kysely<MetaDb>) => meta.withTables<{ settings: SettingsTable }>();
