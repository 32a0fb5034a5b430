import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { DEFAULT_PLANS } from "../plans/default-plans";
import type { EngineKind } from "../config";
import { withLease } from "./migration-lease";

// Versioned control-plane migrations, applied at start on both engines. Append; never edit a shipped one.

const migrations: Record<string, Migration> = {
  "0001_core": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("accounts")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("email", "varchar(255)", (c) => c.notNull().unique())
        .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
        .addColumn("is_operator", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("databases")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("instance", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("owner_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("physical", "varchar(255)", (c) => c.notNull())
        .addColumn("schema_version", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("tables")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("name", "varchar(64)", (c) => c.notNull())
        .addColumn("columns", sql`mediumtext`, (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addUniqueConstraint("tables_database_name", ["database_id", "name"])
        .execute();
      await db.schema
        .createTable("api_keys")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("database_id", "integer", (c) => c.references("databases.id").onDelete("cascade"))
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("key_enc", "varchar(255)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("revoked_at", "varchar(32)")
        .execute();
      await db.schema
        .createTable("meta_state")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("version", "integer", (c) => c.notNull())
        .execute();
      await db.insertInto("meta_state").values({ id: 1, version: 1 }).execute();
    },
  },
  "0002_settings": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("settings")
        .addColumn("name", "varchar(64)", (c) => c.primaryKey())
        .addColumn("value", "varchar(255)", (c) => c.notNull())
        .execute();
    },
  },
  "0004_joins": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("joins")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("name", "varchar(64)", (c) => c.notNull())
        .addColumn("definition", sql`mediumtext`, (c) => c.notNull())
        .addColumn("sql", sql`mediumtext`)
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addUniqueConstraint("joins_database_name", ["database_id", "name"])
        .execute();
    },
  },
  "0003_database_auth": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("database_auth")
        .addColumn("database_id", "integer", (c) => c.primaryKey().references("databases.id").onDelete("cascade"))
        .addColumn("users_table_id", "integer", (c) => c.references("tables.id").onDelete("set null"))
        .addColumn("settings", sql`mediumtext`, (c) => c.notNull())
        .addColumn("secret_enc", "varchar(255)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("table_policies")
        .addColumn("table_id", "integer", (c) => c.primaryKey().references("tables.id").onDelete("cascade"))
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("policies", sql`mediumtext`, (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
  },
  "0005_plans_and_credits": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("plans")
        .addColumn("name", "varchar(32)", (c) => c.primaryKey())
        .addColumn("max_databases", "integer")
        .addColumn("max_invitees", "integer")
        .addColumn("roles", "varchar(255)", (c) => c.notNull())
        .addColumn("custom_domain", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("ai_calls_per_month", "integer")
        .addColumn("requests_per_second", "integer")
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      const at = new Date().toISOString();
      await db
        .insertInto("plans")
        // The plans as they were then: limits added later come with their own migration (0020 webhooks).
        .values(DEFAULT_PLANS.map(({ max_webhooks_per_database: _later, storage_bytes: _after, ...p }) => ({ ...p, roles: JSON.stringify(p.roles), custom_domain: p.custom_domain ? 1 : 0, updated_at: at })))
        .execute();
      await db.schema.alterTable("accounts").addColumn("plan", "varchar(32)", (c) => c.notNull().defaultTo("free")).execute();
      await db.schema
        .createTable("credit_ledger")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("entry", "varchar(8)", (c) => c.notNull())
        .addColumn("amount", "integer", (c) => c.notNull())
        .addColumn("delta", "integer", (c) => c.notNull())
        .addColumn("source", "varchar(191)", (c) => c.unique())
        .addColumn("hold_id", "integer", (c) => c.unique().references("credit_ledger.id"))
        .addColumn("note", "varchar(255)")
        .addColumn("actor", "varchar(64)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("credit_ledger_account").on("credit_ledger").columns(["account_id", "kind"]).execute();
    },
  },
  "0006_teams": {
    up: async (db: Kysely<any>) => {
      await db.schema.alterTable("databases").addColumn("creator_id", "integer").execute();
      await db.updateTable("databases").set({ creator_id: sql`owner_id` }).execute();
      await db.schema
        .createTable("members")
        .addColumn("owner_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("invited_by", "integer")
        .addColumn("joined_at", "varchar(32)", (c) => c.notNull())
        .addPrimaryKeyConstraint("members_pk", ["owner_id", "account_id"])
        .execute();
      await db.schema.createIndex("members_account").on("members").column("account_id").execute();
      await db.schema
        .createTable("invites")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("owner_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("role", "varchar(16)", (c) => c.notNull())
        .addColumn("email", "varchar(255)")
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("token_enc", "varchar(255)", (c) => c.notNull())
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("max_uses", "integer", (c) => c.notNull())
        .addColumn("uses", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_by", "integer", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("revoked_at", "varchar(32)")
        .execute();
      await db.schema.createIndex("invites_owner").on("invites").column("owner_id").execute();
    },
  },
  "0007_ai_builds": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("ai_builds")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("owner_id", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("created_by", "integer", (c) => c.notNull().references("accounts.id"))
        .addColumn("database_id", "integer")
        .addColumn("prompt", sql`text`, (c) => c.notNull())
        .addColumn("model", "varchar(255)", (c) => c.notNull())
        .addColumn("offline", "integer", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("summary", sql`text`)
        .addColumn("plan", sql`mediumtext`)
        .addColumn("steps", sql`mediumtext`, (c) => c.notNull())
        .addColumn("usage", "varchar(255)")
        .addColumn("charge", "varchar(16)", (c) => c.notNull())
        .addColumn("credit", "varchar(16)", (c) => c.notNull())
        .addColumn("hold_id", "integer")
        .addColumn("error", sql`text`)
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("ai_builds_owner").on("ai_builds").columns(["owner_id", "created_at"]).execute();
      await db.schema.createIndex("ai_builds_creator").on("ai_builds").columns(["created_by", "id"]).execute();
    },
  },
  "0008_ai_build_kind": {
    up: async (db: Kysely<any>) => {
      await db.schema.alterTable("ai_builds").addColumn("kind", "varchar(16)", (c) => c.notNull().defaultTo("schema")).execute();
    },
  },
  "0009_pre_hooks": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("table_hooks")
        .addColumn("table_id", "integer", (c) => c.primaryKey().references("tables.id").onDelete("cascade"))
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("hooks", sql`mediumtext`, (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("hook_logs")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull())
        .addColumn("table_name", "varchar(64)", (c) => c.notNull())
        .addColumn("action", "varchar(8)", (c) => c.notNull())
        .addColumn("status", "varchar(8)", (c) => c.notNull())
        .addColumn("duration_ms", "double precision", (c) => c.notNull())
        .addColumn("input", sql`mediumtext`, (c) => c.notNull())
        .addColumn("steps", sql`mediumtext`, (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("hook_logs_database").on("hook_logs").columns(["database_id", "created_at"]).execute();
    },
  },
  "0010_docs_domains": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("database_docs")
        .addColumn("database_id", "integer", (c) => c.primaryKey().references("databases.id").onDelete("cascade"))
        .addColumn("public", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("domain", "varchar(253)", (c) => c.unique())
        .addColumn("domain_status", "varchar(16)", (c) => c.notNull().defaultTo("none"))
        .addColumn("domain_error", "varchar(500)")
        .addColumn("token", "varchar(64)")
        .addColumn("verified_at", "varchar(32)")
        .addColumn("checked_at", "varchar(32)")
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
    },
  },
  "0011_indexes": {
    up: async (db: Kysely<any>) => {
      // JSON array of IndexDef (a table's indexes over several columns); null = none.
      await db.schema.alterTable("tables").addColumn("indexes", sql`mediumtext`).execute();
    },
  },
  "0012_account_status": {
    up: async (db: Kysely<any>) => {
      // Set while the operator has disabled the account: no sign-in, and its keys are refused.
      await db.schema.alterTable("accounts").addColumn("disabled_at", "varchar(32)").execute();
    },
  },
  "0013_session_version": {
    up: async (db: Kysely<any>) => {
      // A dashboard session carries the version it was signed with; bumping it ends the sessions signed before.
      await db.schema.alterTable("accounts").addColumn("session_version", "integer", (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  "0014_docs_domain_claims": {
    up: async (db: Kysely<any>) => {
      // A pending claim reserves nothing: `domain` is no longer unique; `verified_domain` (set by the first
      // verification) is. Rebuilt, since SQLite cannot drop a column's UNIQUE.
      await db.schema
        .createTable("database_docs_next")
        .addColumn("database_id", "integer", (c) => c.primaryKey().references("databases.id").onDelete("cascade"))
        .addColumn("public", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("domain", "varchar(253)")
        .addColumn("verified_domain", "varchar(253)", (c) => c.unique())
        .addColumn("domain_status", "varchar(16)", (c) => c.notNull().defaultTo("none"))
        .addColumn("domain_error", "varchar(500)")
        .addColumn("token", "varchar(64)")
        .addColumn("verified_at", "varchar(32)")
        .addColumn("checked_at", "varchar(32)")
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      const columns = sql.raw("database_id, public, domain, domain_status, domain_error, token, verified_at, checked_at, updated_at");
      await sql`INSERT INTO database_docs_next (${columns}, verified_domain)
        SELECT ${columns}, CASE WHEN domain_status IN ('verified', 'failing') THEN domain END FROM database_docs`.execute(db);
      await db.schema.dropTable("database_docs").execute();
      await db.schema.alterTable("database_docs_next").renameTo("database_docs").execute();
      await db.schema.createIndex("database_docs_domain").on("database_docs").column("domain").execute();
    },
  },
  "0015_schema_journal": {
    up: async (db: Kysely<any>) => {
      // One row per schema change, written before its DDL and marked done in the metadata transaction that
      // records it: a row left `pending` is a change whose DDL may have run without its metadata (lib/meta/schema-change).
      await db.schema
        .createTable("schema_journal")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull())
        .addColumn("change", sql`mediumtext`, (c) => c.notNull())
        .addColumn("state", "varchar(16)", (c) => c.notNull())
        .addColumn("note", "varchar(500)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("schema_journal_state").on("schema_journal").columns(["state", "database_id"]).execute();
    },
  },
  "0016_meta_changes": {
    up: async (db: Kysely<any>) => {
      // One row inserted per metadata change (replacing meta_state's single counter row, which every change
      // updated: a hot row on Galera). Processes compare MAX(id); old rows are pruned as new ones arrive.
      await db.schema
        .createTable("meta_changes")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.insertInto("meta_changes").values({ database_id: null, created_at: new Date().toISOString() }).execute();
    },
  },
  "0017_webhooks": {
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable("webhooks")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("url", "varchar(2048)", (c) => c.notNull())
        .addColumn("tables", sql`mediumtext`)
        .addColumn("actions", "varchar(64)")
        .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
        .addColumn("secret", "varchar(255)", (c) => c.notNull())
        .addColumn("cursor", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("failing_since", "varchar(32)")
        .addColumn("disabled_reason", "varchar(255)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("webhook_deliveries")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
        .addColumn("event_id", "bigint")
        .addColumn("message_id", "varchar(64)", (c) => c.notNull())
        .addColumn("payload", sql`mediumtext`, (c) => c.notNull())
        .addColumn("status", "varchar(12)", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "varchar(32)", (c) => c.notNull())
        .addColumn("claimed_until", "varchar(32)")
        .addColumn("request_headers", sql`text`)
        .addColumn("response_status", "integer")
        .addColumn("response_body", sql`text`)
        .addColumn("duration_ms", "double precision")
        .addColumn("error", "varchar(255)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
      await db.schema.createIndex("webhook_deliveries_webhook").on("webhook_deliveries").columns(["webhook_id", "id"]).execute();
    },
  },
  "0018_saved_views": {
    up: async (db: Kysely<any>) => {
      // A table's saved views: kept by table id, so a rename keeps them and dropping the table removes them.
      await db.schema
        .createTable("saved_views")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("table_id", "integer", (c) => c.notNull().references("tables.id").onDelete("cascade"))
        .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("query", "varchar(2000)", (c) => c.notNull())
        .addColumn("hidden_columns", "text", (c) => c.notNull())
        .addColumn("shared", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("saved_views_table").on("saved_views").columns(["table_id", "account_id"]).execute();
    },
  },
  "0020_plan_webhook_cap": {
    up: async (db: Kysely<any>) => {
      // Webhooks per database (null = unlimited); the default plans get their caps, plans an operator made stay unlimited.
      await db.schema.alterTable("plans").addColumn("max_webhooks_per_database", "integer").execute();
      for (const plan of DEFAULT_PLANS) {
        await db.updateTable("plans").set({ max_webhooks_per_database: plan.max_webhooks_per_database }).where("name", "=", plan.name).execute();
      }
    },
  },
  "0022_plan_storage_bytes": {
    up: async (db: Kysely<any>) => {
      // Bytes of uploaded files per account (null = unlimited); the default plans get theirs, an operator's own plans stay unlimited.
      await db.schema.alterTable("plans").addColumn("storage_bytes", "bigint").execute();
      for (const plan of DEFAULT_PLANS) {
        await db.updateTable("plans").set({ storage_bytes: plan.storage_bytes }).where("name", "=", plan.name).execute();
      }
    },
  },
  "0023_table_history": {
    up: async (db: Kysely<any>) => {
      // Record history per table (docs/history.md): on unless turned off, for tables made before it too.
      await db.schema.alterTable("tables").addColumn("history", "integer", (c) => c.notNull().defaultTo(1)).execute();
    },
  },
  "0021_end_user_accounts": {
    up: async (db: Kysely<any>) => {
      // Database auth sessions: a family per sign-in, a row per refresh token (its sha256), single use.
      await db.schema
        .createTable("auth_families")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("method", "varchar(16)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("revoked_at", "varchar(32)")
        .addColumn("revoked_reason", "varchar(32)")
        .execute();
      await db.schema.createIndex("auth_families_user").on("auth_families").columns(["database_id", "user_id"]).execute();
      await db.schema
        .createTable("auth_refresh_tokens")
        .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("family_id", "integer", (c) => c.notNull().references("auth_families.id").onDelete("cascade"))
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("used_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("auth_refresh_tokens_family").on("auth_refresh_tokens").column("family_id").execute();
      // What the install knows of a database's user beside its row: email verified, disabled.
      await db.schema
        .createTable("auth_user_state")
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("verified_at", "varchar(32)")
        .addColumn("disabled_at", "varchar(32)")
        .addPrimaryKeyConstraint("auth_user_state_pk", ["database_id", "user_id"])
        .execute();
      // Mailed one-time tokens (verify, reset, otp): sha256 of the link's token, and of the 6-digit code with its tries.
      await db.schema
        .createTable("auth_mail_tokens")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("kind", "varchar(12)", (c) => c.notNull())
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("code_hash", "varchar(64)")
        .addColumn("tries", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("used_at", "varchar(32)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("auth_mail_tokens_user").on("auth_mail_tokens").columns(["database_id", "user_id", "kind"]).execute();
      // The install's mailbox: every mail the app sends, kept (no SMTP_URL), queued, sent or failed, with its last error.
      await db.schema
        .createTable("mailbox")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.references("databases.id").onDelete("cascade"))
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("to_address", "varchar(320)", (c) => c.notNull())
        .addColumn("from_address", "varchar(320)", (c) => c.notNull())
        .addColumn("subject", "varchar(998)", (c) => c.notNull())
        .addColumn("text", sql`mediumtext`, (c) => c.notNull())
        .addColumn("html", sql`mediumtext`)
        .addColumn("status", "varchar(12)", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "varchar(32)", (c) => c.notNull())
        .addColumn("claimed_until", "varchar(32)")
        .addColumn("error", "varchar(500)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("sent_at", "varchar(32)")
        .execute();
      await db.schema.createIndex("mailbox_due").on("mailbox").columns(["status", "next_attempt_at"]).execute();
    },
  },
  "0025_auth_identities_mfa": {
    up: async (db: Kysely<any>) => {
      // End users' sign-in identities at OAuth / OpenID providers: one provider subject is one user of one database.
      await db.schema
        .createTable("auth_identities")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("provider", "varchar(255)", (c) => c.notNull())
        .addColumn("subject", "varchar(255)", (c) => c.notNull())
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("email", "varchar(255)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("last_sign_in_at", "varchar(32)", (c) => c.notNull())
        .addUniqueConstraint("auth_identities_subject", ["database_id", "provider", "subject"])
        .execute();
      await db.schema.createIndex("auth_identities_user").on("auth_identities").columns(["database_id", "user_id"]).execute();
      // Short-lived single-use secrets of sign-in steps (an OAuth flow's state, its one-time code, an MFA token), stored hashed.
      await db.schema
        .createTable("auth_tickets")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("user_id", "bigint")
        .addColumn("payload", sql`mediumtext`)
        .addColumn("tries", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("expires_at", "varchar(32)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("auth_tickets_expiry").on("auth_tickets").columns(["expires_at"]).execute();
      // TOTP factors (the secret encrypted with the install's secret) and their hashed single-use recovery codes.
      await db.schema
        .createTable("auth_mfa_factors")
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("secret_enc", "varchar(255)", (c) => c.notNull())
        .addColumn("confirmed_at", "varchar(32)")
        .addColumn("last_step", "bigint")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addPrimaryKeyConstraint("auth_mfa_factors_pk", ["database_id", "user_id"])
        .execute();
      await db.schema
        .createTable("auth_recovery_codes")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("code_hash", "varchar(64)", (c) => c.notNull())
        .addUniqueConstraint("auth_recovery_codes_code", ["database_id", "user_id", "code_hash"])
        .execute();
    },
  },
  "0026_backups": {
    up: async (db: Kysely<any>) => {
      // Backups of a database (the archive on disk under DATA_DIR/backups, or the store), its schedule, and
      // the names restores are creating right now (two restores of one name: one wins, the other is 409).
      await db.schema
        .createTable("backups")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull())
        .addColumn("status", "varchar(16)", (c) => c.notNull())
        .addColumn("location", "varchar(512)", (c) => c.notNull())
        .addColumn("size", "bigint")
        .addColumn("tables", "integer")
        .addColumn("rows", "bigint")
        .addColumn("event_id", "bigint")
        .addColumn("error", "varchar(1000)")
        .addColumn("scheduled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_by", "integer")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addColumn("finished_at", "varchar(32)")
        .execute();
      await db.schema.createIndex("backups_database").on("backups").columns(["database_id", "id"]).execute();
      await db.schema
        .createTable("backup_schedules")
        .addColumn("database_id", "integer", (c) => c.primaryKey())
        .addColumn("every_hours", "integer", (c) => c.notNull())
        .addColumn("keep", "integer", (c) => c.notNull())
        .addColumn("next_at", "varchar(32)", (c) => c.notNull())
        .addColumn("updated_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("restore_claims")
        .addColumn("owner_id", "integer", (c) => c.notNull())
        .addColumn("name", "varchar(255)", (c) => c.notNull())
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .addPrimaryKeyConstraint("restore_claims_pk", ["owner_id", "name"])
        .execute();
    },
  },
  "0024_audit_log": {
    up: async (db: Kysely<any>) => {
      // The audit log: append-only, one row per management change or sign-in, kept AUDIT_DAYS. Rows outlive the
      // databases and accounts they name (no foreign keys), so the instance name and the email are copied in.
      await db.schema
        .createTable("audit_log")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("at", "varchar(32)", (c) => c.notNull())
        .addColumn("workspace_id", "integer")
        .addColumn("actor_id", "integer")
        .addColumn("actor_email", "varchar(255)")
        .addColumn("via", "varchar(12)", (c) => c.notNull())
        .addColumn("ip", "varchar(64)")
        .addColumn("action", "varchar(64)", (c) => c.notNull())
        .addColumn("database_id", "integer")
        .addColumn("database_instance", "varchar(64)")
        .addColumn("target", "varchar(255)", (c) => c.notNull())
        .addColumn("before_json", sql`mediumtext`)
        .addColumn("after_json", sql`mediumtext`)
        .execute();
      await db.schema.createIndex("audit_log_workspace").on("audit_log").columns(["workspace_id", "id"]).execute();
      await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at"]).execute();
    },
  },
  "0027_webhook_attempts": {
    up: async (db: Kysely<any>) => {
      // Every attempt of a delivery with its own outcome: the delivery row keeps only the last one, so a failed
      // first attempt would vanish once a retry succeeds. Deleting the delivery (or its webhook) removes them.
      await db.schema
        .createTable("webhook_attempts")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("ok", "integer", (c) => c.notNull())
        .addColumn("response_status", "integer")
        .addColumn("response_body", sql`text`)
        .addColumn("duration_ms", "double precision")
        .addColumn("error", "varchar(255)")
        .addColumn("created_at", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "id"]).execute();
    },
  },
  "0028_restore_heartbeat": {
    up: async (db: Kysely<any>) => {
      // A restore or clone in progress refreshes its claim; a claim not refreshed for RESTORE_STALE_SECONDS is a
      // process that died mid-restore, and its partial database is deleted (lib/backup/claim-name.ts).
      await db.schema.alterTable("restore_claims").addColumn("alive_at", "varchar(32)").execute();
      // The database the restore fills, once made: the one the sweeper deletes (never another of the same name).
      await db.schema.alterTable("restore_claims").addColumn("database_id", "integer").execute();
    },
  },
  "0029_file_usage": {
    up: async (db: Kysely<any>) => {
      // Bytes of files each database's rows name, moved by the row writes that attach or remove files (in their
      // transaction on MariaDB), and the bytes uploads in flight hold until their write commits or is refused.
      await db.schema
        .createTable("file_usage")
        .addColumn("database_id", "integer", (c) => c.primaryKey().references("databases.id").onDelete("cascade"))
        .addColumn("bytes", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("file_reservations")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("database_id", "integer", (c) => c.notNull().references("databases.id").onDelete("cascade"))
        .addColumn("bytes", "bigint", (c) => c.notNull())
        .addColumn("expires_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("file_reservations_database").on("file_reservations").columns(["database_id"]).execute();
    },
  },
};

/** Applies the pending migrations; on MySQL under the cluster-wide lease, so N processes on N nodes migrate once. */
export const migrateToLatest = async (db: Kysely<any>, engine: EngineKind = "sqlite") =>
  engine === "mysql" ? withLease(db, "migrations", () => migrate(db)) : migrate(db);

const migrate = async (db: Kysely<any>) => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`metadata migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
};
