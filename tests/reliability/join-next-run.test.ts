// joinNextRun: callers that come together share runs, and none gets an answer from a run that began before it
// called (the metadata version read and the event sequencer rely on this for read-your-writes).
import { describe, expect, it } from "vitest";
import { joinNextRun } from "../../lib/db/join-next-run";

/** A run whose start and end the test controls; each run returns its sequence number. */
const controlled = () => {
  const started: number[] = [];
  const finish: (() => void)[] = [];
  const run = () => {
    const n = started.length + 1;
    started.push(n);
    return new Promise<number>((resolve) => finish.push(() => resolve(n)));
  };
  return { started, finish, shared: joinNextRun(run) };
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("joinNextRun", () => {
  it("a caller alone starts a run of its own", async () => {
    const { started, finish, shared } = controlled();
    const a = shared();
    expect(started).toEqual([1]);
    finish[0]();
    expect(await a).toBe(1);
    const b = shared();
    expect(started).toEqual([1, 2]);
    finish[1]();
    expect(await b).toBe(2);
  });

  it("callers during a run wait for one run started after it, never the run already in flight", async () => {
    const { started, finish, shared } = controlled();
    const first = shared();
    const during = [shared(), shared(), shared()];
    expect(started).toEqual([1]); // the queued run has not started while the first is in flight
    finish[0]();
    expect(await first).toBe(1);
    await tick();
    expect(started).toEqual([1, 2]);
    finish[1]();
    expect(await Promise.all(during)).toEqual([2, 2, 2]);
  });

  it("a failed run does not block the queued one, and its caller sees the error", async () => {
    let calls = 0;
    const shared = joinNextRun(async () => {
      calls++;
      if (calls === 1) throw new Error("lost");
      return calls;
    });
    const first = shared();
    const second = shared();
    await expect(first).rejects.toThrow("lost");
    expect(await second).toBe(2);
    expect(await shared()).toBe(3);
  });
});
