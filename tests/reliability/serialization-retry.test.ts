import { describe, expect, it } from "vitest";
import { ApiError, toErrorResponse } from "../../lib/errors";
import { isSerializationFailure, withSerializationRetry } from "../../lib/db/serialization-retry";

const deadlock = Object.assign(new Error("Deadlock found when trying to get lock; try restarting transaction"), { errno: 1213, sqlState: "40001" });
const lockWait = Object.assign(new Error("Lock wait timeout exceeded"), { errno: 1205 });

describe("serialization retry", () => {
  it("classifies deadlocks, lock-wait timeouts and SQLSTATE 40001, nothing else", () => {
    expect(isSerializationFailure(deadlock)).toBe(true);
    expect(isSerializationFailure(lockWait)).toBe(true);
    expect(isSerializationFailure({ sqlState: "40001" })).toBe(true);
    expect(isSerializationFailure(Object.assign(new Error("Duplicate entry"), { errno: 1062 }))).toBe(false);
    expect(isSerializationFailure(new Error("boom"))).toBe(false);
    expect(isSerializationFailure(null)).toBe(false);
  });

  it("runs the transaction again after a conflict and returns its result", async () => {
    let runs = 0;
    const result = await withSerializationRetry(async () => {
      runs++;
      if (runs < 3) throw deadlock;
      return "ok";
    }, { baseDelayMs: 1 });
    expect(result).toBe("ok");
    expect(runs).toBe(3);
  });

  it("ends in 409 write_conflict with retryable: true when the attempts run out", async () => {
    let runs = 0;
    const failure = await withSerializationRetry(async () => {
      runs++;
      throw lockWait;
    }, { attempts: 4, baseDelayMs: 1 }).catch((err) => err);
    expect(runs).toBe(4);
    expect(failure).toBeInstanceOf(ApiError);
    expect(toErrorResponse(failure)).toMatchObject({ status: 409, body: { error: "write_conflict", retryable: true } });
  });

  it("throws any other error at once, without another run", async () => {
    let runs = 0;
    const boom = new Error("boom");
    await expect(withSerializationRetry(async () => {
      runs++;
      throw boom;
    })).rejects.toBe(boom);
    expect(runs).toBe(1);
  });
});
