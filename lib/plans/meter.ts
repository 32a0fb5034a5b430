// The quota meter's shape, apart from the quota rules (lib/plans/quotas.ts): a service ctx carries a meter, and
// the rules reach the credit ledger, which reaches back to the ctx's helpers.
import type { Transaction } from "kysely";
import type { MetaDb } from "../db/meta-schema";

/** How a metered use is paid: within the plan (or unlimited), by a credit the service must hold, or free. */
export type QuotaOutcome = "allowance" | "credit" | "free";

export type Meter = {
  apply: (trx: Transaction<MetaDb>) => Promise<void>;
  /** Forgets an application whose transaction rolled back (it is run again after a serialization failure). */
  reset: () => void;
  readonly applied: boolean;
  readonly outcome?: QuotaOutcome;
};
