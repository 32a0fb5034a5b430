/** Every TanStack Query key of the dashboard, in one place so mutations invalidate the right ones. */
export const queryKeys = {
  /** Every database list (a prefix): a change to any database refreshes them all. */
  databases: ["databases"] as const,
  databaseList: (query: object) => ["databases", query] as const,
  database: (instance: string) => ["database", instance] as const,
  keys: ["keys"] as const,
  account: ["account"] as const,
  accounts: ["accounts"] as const,
  plans: ["plans"] as const,
  mailbox: ["mailbox"] as const,
  credits: ["credits"] as const,
  settings: ["settings"] as const,
  signupStatus: ["signup-status"] as const,
  records: (instance: string, table: string) => ["records", instance, table] as const,
  openapi: (instance: string) => ["openapi", instance] as const,
  docsSettings: (instance: string) => ["docs-settings", instance] as const,
  auth: (instance: string) => ["auth", instance] as const,
  authUsers: (instance: string, q: string, after: number | null) => ["auth", instance, "users", q, after] as const,
  policies: (instance: string, table: string) => ["policies", instance, table] as const,
  hooks: (instance: string, table: string) => ["hooks", instance, table] as const,
  /** Hook runs of a database (a prefix) under one filter. */
  hookLogs: (instance: string, query?: object) => (query ? (["hook-logs", instance, query] as const) : (["hook-logs", instance] as const)),
  /** The team of one workspace (its owner's id; undefined = your own): members and invites under one prefix. */
  team: (workspace?: number) => ["team", workspace ?? "own"] as const,
  members: (workspace?: number) => ["team", workspace ?? "own", "members"] as const,
  invites: (workspace?: number) => ["team", workspace ?? "own", "invites"] as const,
  workspaces: ["workspaces"] as const,
  /** Audit entries under one filter (a prefix: every filter refreshes together). */
  audit: (filter?: object) => (filter ? (["audit", filter] as const) : (["audit"] as const)),
  invite: (token: string) => ["invite", token] as const,
  /** AI builds: the history (a prefix), one build, and the one running now (polled while a build is in flight). */
  aiBuilds: ["ai-builds"] as const,
  aiBuildList: ["ai-builds", "list"] as const,
  aiBuild: (id: number) => ["ai-builds", id] as const,
  aiRunning: ["ai-builds", "running"] as const,
  /** Who plans builds: the configured model, or the offline planner (fixed while the server runs). */
  aiPlanner: ["ai-planner"] as const,
};
