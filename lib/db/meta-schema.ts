import type { Generated } from "kysely";

// Control-plane tables. Timestamps are ISO-8601 strings so both engines store them alike.

export type AccountsTable = {
  id: Generated<number>;
  email: string;
  password_hash: string;
  is_operator: number;
  /** Name of a row of `plans`; the operator's own account is unlimited whatever it names. */
  plan: Generated<string>;
  created_at: string;
  /** When the operator disabled the account (null: active). */
  disabled_at: string | null;
  /** Sessions signed with another version are over (lib/auth/session-version.ts). */
  session_version: Generated<number>;
};

export type DatabasesTable = {
  id: Generated<number>;
  instance: string;
  name: string;
  owner_id: number;
  /** Who created it: the owner, or a member of the owner's workspace (null on databases made before teams). */
  creator_id: number | null;
  /** MySQL schema name or SQLite file name (relative to DATA_DIR/databases). */
  physical: string;
  schema_version: number;
  created_at: string;
  updated_at: string;
};

export type TablesTable = {
  id: Generated<number>;
  database_id: number;
  name: string;
  /** JSON array of ColumnDef, in display order. */
  columns: string;
  /** JSON array of IndexDef (indexes over several columns); null = none. */
  indexes: string | null;
  /** 1: the table keeps record history (docs/history.md); 0: its change events are pruned as any others. */
  history: Generated<number>;
  created_at: string;
};

export type ApiKeysTable = {
  id: Generated<number>;
  account_id: number;
  database_id: number | null;
  name: string;
  key_hash: string;
  /** AES-256-GCM ciphertext of the key, so its owner can see it again. */
  key_enc: string;
  created_at: string;
  revoked_at: string | null;
};

export type JoinsTable = {
  id: Generated<number>;
  database_id: number;
  name: string;
  /** JSON of the structured definition (base, joins, columns). */
  definition: string;
  /** The SQL-mode text it was made from, if any. */
  sql: string | null;
  created_at: string;
};

/** One row; its version rises on every metadata write so other processes drop their caches. */
export type MetaStateTable = {
  id: number;
  version: number;
};

/** One row per metadata change (lib/meta/context.ts bumpMetaVersion); MAX(id) is the metadata's version. */
export type MetaChangesTable = {
  id: Generated<number>;
  database_id: number | null;
  created_at: string;
};

/** Database auth settings (JSON of AuthSettings without users_table) and the encrypted signing secret. */
export type DatabaseAuthTable = {
  database_id: number;
  users_table_id: number | null;
  settings: string;
  secret_enc: string;
  updated_at: string;
};

/** Row policies of one table, JSON {select, insert, update, delete}. */
export type TablePoliciesTable = {
  table_id: number;
  database_id: number;
  policies: string;
  updated_at: string;
};

/** An operator-editable plan; a null limit is unlimited. `roles` is a JSON array of member roles. */
export type PlansTable = {
  name: string;
  max_databases: number | null;
  max_invitees: number | null;
  roles: string;
  custom_domain: number;
  ai_calls_per_month: number | null;
  requests_per_second: number | null;
  max_webhooks_per_database: number | null;
  storage_bytes: number | string | null;
  updated_at: string;
};

/**
 * The credits ledger: append-only. A balance is the sum of `delta` for one account and kind: a grant adds,
 * a hold or a direct spend takes, a release gives a hold back, and the spend that settles a hold moves nothing.
 */
export type CreditLedgerTable = {
  id: Generated<number>;
  account_id: number;
  kind: string;
  entry: string;
  amount: number;
  delta: number;
  /** Grants only: the purchase it comes from; unique, so the same purchase never grants twice. */
  source: string | null;
  /** Spend or release of a hold: the hold's id; unique, so a hold is settled once. */
  hold_id: number | null;
  note: string | null;
  /** Who wrote the entry: `account:<id>`, `webhook` or `system`. */
  actor: string;
  created_at: string;
};

/** A member of an owner's workspace (every database of that owner) with one role. The owner is never a row. */
export type MembersTable = {
  owner_id: number;
  account_id: number;
  role: string;
  invited_by: number | null;
  joined_at: string;
};

/** An invite link to a workspace: the token is stored hashed for lookup and encrypted for the admins' list. */
export type InvitesTable = {
  id: Generated<number>;
  owner_id: number;
  role: string;
  email: string | null;
  token_hash: string;
  token_enc: string;
  expires_at: string;
  max_uses: number;
  uses: number;
  created_by: number;
  created_at: string;
  revoked_at: string | null;
};

/** One AI build: the prompt, the model's steps, the plan, what it cost and what became of it. */
export type AiBuildsTable = {
  id: Generated<number>;
  owner_id: number;
  created_by: number;
  /** The database it extends, or the one applying it created. */
  database_id: number | null;
  prompt: string;
  /** `schema` (tables, joins, seed rows) or `join` (one join proposal for the Joins page). */
  kind: Generated<string>;
  model: string;
  offline: number;
  status: string;
  summary: string | null;
  plan: string | null;
  steps: string;
  usage: string | null;
  /** How the call was paid: `allowance`, `credit` or `none` (offline); `credit` tells what became of it. */
  charge: string;
  credit: string;
  hold_id: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
};

/** Pre hooks of one table, JSON {insert, update, delete}. */
export type TableHooksTable = { table_id: number; database_id: number; hooks: string; updated_at: string };

/** One run of a pre hook (kept 7 days). */
export type HookLogsTable = {
  id: Generated<number>;
  database_id: number;
  table_name: string;
  action: string;
  status: string;
  duration_ms: number;
  input: string;
  steps: string;
  created_at: string;
};

/** A database's public docs (off by default) and their custom domain: none → pending → verified (→ failing). */
export type DatabaseDocsTable = {
  database_id: number;
  public: number;
  /** Lowercase hostname claimed; several databases may claim one while none has verified it. */
  domain: string | null;
  /** The domain once this database verified it first (unique: the owner); kept while verified or failing. */
  verified_domain: string | null;
  domain_status: "none" | "pending" | "verified" | "failing";
  /** Why the last check did not verify (CNAME points elsewhere, TXT token missing, …). */
  domain_error: string | null;
  /** The TXT token that proves control of the domain; new for every new domain. */
  token: string | null;
  verified_at: string | null;
  checked_at: string | null;
  updated_at: string;
};

/** A schema change as recorded before its DDL ran (lib/meta/schema-change/journal.ts). */
export type SchemaJournalTable = {
  id: Generated<number>;
  database_id: number;
  /** The SchemaChange as JSON (its table and column definitions as they were). */
  change: string;
  /** pending → done (its metadata committed), or → undone / finished / resolved by the reconciler. */
  state: "pending" | "done" | "undone" | "finished" | "resolved";
  note: string | null;
  created_at: string;
  updated_at: string;
};

/** A database's webhook (lib/webhooks): change events POSTed, signed, to `url`. */
export type WebhooksTable = {
  id: Generated<number>;
  database_id: number;
  url: string;
  /** JSON array of table names; null = every table. */
  tables: string | null;
  /** JSON array of actions; null = every action. */
  actions: string | null;
  active: number;
  /** The whsec_ secret, encrypted with the install's secret (lib/keys/key-crypto.ts). */
  secret: string;
  /** The last outbox event id turned into deliveries (the fan-out cursor). */
  cursor: number;
  failing_since: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
};

/** One event (or test) sent to one webhook, with its last attempt's outcome. */
export type WebhookDeliveriesTable = {
  id: Generated<number>;
  webhook_id: number;
  /** The outbox event id (null for a test delivery). */
  event_id: number | null;
  /** The webhook-id header: the same on every attempt, so receivers can drop repeats. */
  message_id: string;
  payload: string;
  status: "pending" | "delivering" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: string;
  /** While delivering: when another process may take the attempt over (this one presumed dead). */
  claimed_until: string | null;
  request_headers: string | null;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
};

/** One attempt of a webhook delivery, as it went (the delivery row holds the last one only). */
export type WebhookAttemptsTable = {
  id: Generated<number>;
  delivery_id: number;
  /** 1 for the first attempt; a redelivery counts from 1 again. */
  attempt: number;
  ok: number;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
};

/** A saved view of a table in the dashboard (filters, sort, hidden columns). */
export type SavedViewsTable = {
  id: Generated<number>;
  table_id: number;
  /** The creator: a private view is seen by this account only. */
  account_id: number;
  name: string;
  /** The data API query string (filters, `_sort`, `_limit`). */
  query: string;
  /** JSON array of column names the grid hides. */
  hidden_columns: string;
  shared: number;
  created_at: string;
  updated_at: string;
};

/** One sign-in of a database user: its refresh tokens rotate inside it; revoking it ends them all. */
export type AuthFamiliesTable = {
  id: Generated<number>;
  database_id: number;
  user_id: number;
  /** How the user signed in: password, signup, otp, oauth, ... */
  method: string;
  created_at: string;
  revoked_at: string | null;
  /** logout, logout_all, reuse, password_reset, disabled, secret_rotated, user_gone, admin (ended from the users admin). */
  revoked_reason: string | null;
};

/** A refresh token (sha256 hex of it); single use: `used_at` is set by the one refresh that spends it. */
export type AuthRefreshTokensTable = {
  token_hash: string;
  family_id: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

/** A database user's state beside its row: email verified, account disabled. */
export type AuthUserStateTable = {
  database_id: number;
  user_id: number;
  verified_at: string | null;
  disabled_at: string | null;
};

/** A mailed one-time token: `kind` verify | reset | otp; the link's token and the otp code stored as sha256 hex. */
export type AuthMailTokensTable = {
  id: Generated<number>;
  database_id: number;
  user_id: number;
  kind: string;
  token_hash: string;
  code_hash: string | null;
  tries: number;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

/** One mail of the install (lib/mail): `status` kept (no SMTP_URL) | queued | sent | failed. */
export type MailboxTable = {
  id: Generated<number>;
  database_id: number | null;
  kind: string;
  to_address: string;
  from_address: string;
  subject: string;
  text: string;
  html: string | null;
  status: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  error: string | null;
  created_at: string;
  sent_at: string | null;
};

/** A user's identity at an OAuth / OpenID provider (lib/db-auth/oauth): `subject` is the provider's user id. */
export type AuthIdentitiesTable = {
  id: Generated<number>;
  database_id: number;
  /** The provider's key in the database's auth settings (`google`, `github`, `oidc`, or its name). */
  provider: string;
  subject: string;
  user_id: number;
  /** The email the provider gave at the last sign-in. */
  email: string | null;
  created_at: string;
  last_sign_in_at: string;
};

/** A short-lived single-use secret of a sign-in step (lib/db-auth/auth-tickets.ts), stored hashed. */
export type AuthTicketsTable = {
  id: Generated<number>;
  database_id: number;
  /** `oauth_flow`, `oauth_code` or `mfa`. */
  kind: string;
  token_hash: string;
  user_id: number | null;
  /** JSON of what the step keeps (an OAuth flow's verifier, nonce and redirect). */
  payload: string | null;
  /** Wrong codes presented with it so far. */
  tries: Generated<number>;
  expires_at: string;
  created_at: string;
};

/** A user's TOTP factor: pending until confirmed; `last_step` is the last accepted time step (replays refused). */
export type AuthMfaFactorsTable = {
  database_id: number;
  user_id: number;
  /** The base32 secret, AES-256-GCM under the install's secret. */
  secret_enc: string;
  confirmed_at: string | null;
  last_step: number | null;
  created_at: string;
};

/** One single-use recovery code of a user's MFA (SHA-256; a used code is deleted). */
export type AuthRecoveryCodesTable = {
  id: Generated<number>;
  database_id: number;
  user_id: number;
  code_hash: string;
};
/** One backup of a database: running → done | failed; `location` names the archive in the backup store. */
export type BackupsTable = {
  id: Generated<number>;
  database_id: number;
  status: "running" | "done" | "failed";
  location: string;
  size: number | null;
  tables: number | null;
  rows: number | null;
  event_id: number | null;
  error: string | null;
  scheduled: number;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
};

/** A database's backup schedule: every `every_hours`, keeping the newest `keep` scheduled backups. */
export type BackupSchedulesTable = { database_id: number; every_hours: number; keep: number; next_at: string; updated_at: string };

/** A display name a restore or clone is creating in a workspace, held until it finishes (stale after an hour). */
/** A restore or clone holding its name; `alive_at` is refreshed while it runs (null on claims made before it was). */
export type RestoreClaimsTable = { owner_id: number; name: string; created_at: string; alive_at: string | null; database_id: number | null };

/** One audit entry (lib/meta/audit): append-only, pruned after AUDIT_DAYS; JSON columns hold redacted values. */
export type AuditLogTable = {
  id: Generated<number>;
  at: string;
  /** The owner whose workspace the change was in (null: install-wide, only the operator sees it). */
  workspace_id: number | null;
  actor_id: number | null;
  actor_email: string | null;
  via: string;
  ip: string | null;
  action: string;
  database_id: number | null;
  database_instance: string | null;
  target: string;
  before_json: string | null;
  after_json: string | null;
};

/** Bytes of files a database's rows name (the storage quota's counter). */
export type FileUsageTable = { database_id: number; bytes: number | string };

/** Bytes an upload in flight holds against the quota until its write commits or is refused (or it expires). */
export type FileReservationsTable = { id: Generated<number>; database_id: number; bytes: number | string; expires_ms: number | string };

export type MetaDb = {
  accounts: AccountsTable;
  databases: DatabasesTable;
  tables: TablesTable;
  api_keys: ApiKeysTable;
  meta_state: MetaStateTable;
  meta_changes: MetaChangesTable;
  joins: JoinsTable;
  database_auth: DatabaseAuthTable;
  table_policies: TablePoliciesTable;
  plans: PlansTable;
  credit_ledger: CreditLedgerTable;
  members: MembersTable;
  invites: InvitesTable;
  ai_builds: AiBuildsTable;
  table_hooks: TableHooksTable;
  hook_logs: HookLogsTable;
  database_docs: DatabaseDocsTable;
  schema_journal: SchemaJournalTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  saved_views: SavedViewsTable;
  auth_families: AuthFamiliesTable;
  auth_refresh_tokens: AuthRefreshTokensTable;
  auth_user_state: AuthUserStateTable;
  auth_mail_tokens: AuthMailTokensTable;
  mailbox: MailboxTable;
  auth_identities: AuthIdentitiesTable;
  auth_tickets: AuthTicketsTable;
  auth_mfa_factors: AuthMfaFactorsTable;
  auth_recovery_codes: AuthRecoveryCodesTable;
  backups: BackupsTable;
  backup_schedules: BackupSchedulesTable;
  restore_claims: RestoreClaimsTable;
  audit_log: AuditLogTable;
  file_usage: FileUsageTable;
  file_reservations: FileReservationsTable;
};
