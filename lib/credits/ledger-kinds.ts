// The ledger's vocabulary, without database imports (the management schemas and the dashboard use it).

export const CREDIT_KINDS = ["databases", "ai_calls"] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];

export const LEDGER_ENTRIES = ["grant", "hold", "spend", "release"] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRIES)[number];
