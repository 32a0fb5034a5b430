/** The SQL console's limits (docs/api.md, "SQL console and saved views"). */
export type ConsoleLimits = { timeMs: number; maxRows: number };

export const CONSOLE_LIMITS: ConsoleLimits = { timeMs: 5_000, maxRows: 1_000 };

export type ConsoleResult = { columns: string[]; rows: unknown[][]; truncated: boolean; ms: number };
