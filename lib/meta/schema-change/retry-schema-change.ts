import type { App } from "../../app-type";
import { withSerializationRetry } from "../../db/serialization-retry";

/**
 * Runs a schema-changing service again, whole, after a serialization failure (a Galera certification conflict at
 * the metadata commit, a deadlock, a change planned on a schema that moved): each run reloads the schema and
 * plans from it (`attempt` says which run it is), and the DDL is idempotent, so a run after one whose DDL committed finishes the same change.
 */
export const retrySchemaChange = <T>(app: App, run: (attempt: number) => Promise<T>): Promise<T> =>
  withSerializationRetry(
    async (attempt) => {
      if (attempt > 1) app.schemas.clear();
      return run(attempt);
    },
    { attempts: 10, baseDelayMs: 5 },
  );
