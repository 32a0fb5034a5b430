// Metadata transactions lose races too (two changes bumping the same rows, a Galera certification conflict):
// each runs whole again after a serialization failure, then ends in 409 write_conflict. Events are published
// by the callers after this returns, so a retried change is announced once.
import type { Kysely, Transaction } from "kysely";
import type { MetaDb } from "./meta-schema";
import { withSerializationRetry } from "./serialization-retry";

export const META_RETRY = { attempts: 5, baseDelayMs: 5 };

/** `fn` in one metadata transaction, re-run from BEGIN after a serialization failure. */
export const metaTransaction = <T, DB = MetaDb>(meta: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> =>
  withSerializationRetry(() => meta.transaction().execute(fn), META_RETRY);
