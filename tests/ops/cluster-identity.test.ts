// What a process on a cluster node needs to agree on with the others, and how a Galera node's refusals are told.
import { describe, expect, it } from "vitest";
import { readConfig as readEnv } from "../../lib/config";

const readConfig = (env: Record<string, string>) => readEnv(env as NodeJS.ProcessEnv);
import { unavailability } from "../../lib/db/unavailable";
import { installIdentity } from "../../lib/events/install-identity";
import { eventChannel } from "../../lib/events/redis-link";

describe("install identity", () => {
  it("is the same for processes on different database nodes of one install (never host:port)", () => {
    const a = installIdentity(readConfig({ DATABASE_URL: "mysql://root@10.0.0.1:3306/tabula" }));
    const b = installIdentity(readConfig({ DATABASE_URL: "mysql://root@10.0.0.2:3307/tabula" }));
    expect(eventChannel(a)).toBe(eventChannel(b));
  });

  it("differs between installs (another metadata schema), and TABULA_INSTALL_ID overrides it", () => {
    const a = installIdentity(readConfig({ DATABASE_URL: "mysql://root@db:3306/tabula" }));
    const other = installIdentity(readConfig({ DATABASE_URL: "mysql://root@db:3306/staging" }));
    expect(eventChannel(a)).not.toBe(eventChannel(other));
    const named = installIdentity(readConfig({ DATABASE_URL: "mysql://root@db:3306/staging", TABULA_INSTALL_ID: "prod" }));
    expect(named).toBe(installIdentity(readConfig({ DATA_DIR: "/elsewhere", TABULA_INSTALL_ID: "prod" })));
  });
});

describe("a Galera node that cannot serve", () => {
  it("error 1047 (no quorum) and a read's 1205 (wsrep_sync_wait timed out) are 503 unavailable; a syntax error is not", () => {
    const noQuorum = Object.assign(new Error("WSREP has not yet prepared node for application use"), { errno: 1047, code: "ER_UNKNOWN_COM_ERROR" });
    const syncWait = Object.assign(new Error("Lock wait timeout exceeded; try restarting transaction"), { errno: 1205 });
    expect(unavailability(noQuorum)?.kind).toBe("unreachable");
    expect(unavailability(syncWait)?.kind).toBe("unreachable");
    expect(unavailability(Object.assign(new Error("You have an error in your SQL syntax"), { errno: 1064 }))).toBeUndefined();
  });

  it("DB_SYNC_WAIT is read as a whole number (0 turns read-your-writes off) and refuses anything else", () => {
    expect(readConfig({ DB_SYNC_WAIT: "0" }).syncWait).toBe(0);
    expect(readConfig({}).syncWait).toBeUndefined();
    expect(() => readConfig({ DB_SYNC_WAIT: "on" })).toThrow(/DB_SYNC_WAIT/);
  });
});
