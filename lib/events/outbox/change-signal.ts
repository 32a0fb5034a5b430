// Wake-ups for readers of the outbox (feeds, the webhook dispatcher): "database X may have new events".
// A hint only, sent once the write has committed (SQLite: its batch's COMMIT, group-commit.ts) or, on MySQL, as it is
// about to; readers confirm in the outbox itself.
/** `local`: the write was made by this process (what the Redis link forwards). */
type Listener = (physical: string, local: boolean) => void;

const listeners = new Set<Listener>();
const pending = new Set<string>();
let scheduled = false;

const flush = () => {
  scheduled = false;
  const names = [...pending];
  pending.clear();
  for (const physical of names) for (const listener of listeners) listener(physical, true);
};

/** Called by recordChanges; coalesced per tick, delivered after the current call stack (the commit) has gone on. */
export const signalChanges = (physical: string) => {
  pending.add(physical);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
};

/** Hears this process's signals (and, linked by start-change-events, other processes'); returns unsubscribe. */
export const onChanges = (listener: Listener) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** A signal from another process (Redis): this process's listeners only. */
export const deliverChanges = (physical: string) => {
  for (const listener of listeners) listener(physical, false);
};
