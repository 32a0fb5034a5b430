/** Every TanStack Query key of the dashboard, in one place so mutations invalidate the right ones. */
export const queryKeys = {
  databases: ["databases"] as const,
  database: (instance: string) => ["database", instance] as const,
  keys: ["keys"] as const,
  account: ["account"] as const,
  accounts: ["accounts"] as const,
  plans: ["plans"] as const,
  credits: ["credits"] as const,
  settings: ["settings"] as const,
  signupStatus: ["signup-status"] as const,
  records: (instance: string, table: string) => ["records", instance, table] as const,
  openapi: (instance: string) => ["openapi", instance] as const,
  auth: (instance: string) => ["auth", instance] as const,
  policies: (instance: string, table: string) => ["policies", instance, table] as const,
};
