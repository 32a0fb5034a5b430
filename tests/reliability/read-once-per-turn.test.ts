// readOncePerTurn (SQLite's metadata version read): the callers of one event-loop turn share a read, and the
// read runs after every one of them called, so none gets an answer older than its call (read-your-writes).
import { describe, expect, it } from "vitest";
import { readOncePerTurn } from "../../lib/db/read-once-per-turn";

/** A value another process commits to, and a shared read of it that counts its reads. */
const committed = () => {
  const state = { value: 0, reads: 0 };
  const shared = readOncePerTurn(() => {
    state.reads++;
    return state.value;
  });
  return { state, shared };
};

describe("readOncePerTurn", () => {
  it("callers of one turn share one read", async () => {
    const { state, shared } = committed();
    const answers = await Promise.all([shared(), shared(), shared()]);
    expect(answers).toEqual([0, 0, 0]);
    expect(state.reads).toBe(1);
  });

  it("a change committed before a caller called is in its answer, even when an earlier caller of the turn started the read", async () => {
    const { state, shared } = committed();
    const first = shared();
    state.value = 1; // committed after the first caller, before the second
    const second = shared();
    expect(state.reads).toBe(0); // nothing read before the last caller of the turn called
    expect(await Promise.all([first, second])).toEqual([1, 1]);
  });

  it("a caller after the turn's read gets a read of its own", async () => {
    const { state, shared } = committed();
    expect(await shared()).toBe(0);
    state.value = 2;
    expect(await shared()).toBe(2);
    expect(state.reads).toBe(2);
  });

  it("a failed read rejects its turn's callers and the next turn reads again", async () => {
    let fail = true;
    const shared = readOncePerTurn(() => {
      if (fail) throw new Error("locked");
      return "ok";
    });
    const [a, b] = [shared(), shared()];
    await expect(a).rejects.toThrow("locked");
    await expect(b).rejects.toThrow("locked");
    fail = false;
    expect(await shared()).toBe("ok");
  });
});
