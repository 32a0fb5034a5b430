// Wake-ups for readers of the outbox (feeds, the webhook dispatcher): "tables T of database X may have new events".
// A hint only, sent once the write has committed (SQLite: its batch's COMMIT, group-commit.ts); readers confirm
// in the outbox itself. Feeds are woken by database and table, so a write wakes only
// the feeds that asked for one of its tables.
/** `tables`: the tables written, or undefined when not known (all of the database's feeds wake). `local`: made by this process. */
type Listener = (physical: string, tables: ReadonlySet<string> | undefined, local: boolean) => void;

const listeners = new Set<Listener>();
/** physical → table → the wake functions of the feeds on it. */
const watchers = new Map<string, Map<string, Set<() => void>>>();
const pending = new Map<string, Set<string>>();
let scheduled = false;
/** Feed wake-ups delivered since start (metrics, and tests of the fan-out). */
let wakeUps = 0;

const wakeWatchers = (physical: string, tables: ReadonlySet<string> | undefined) => {
  const byTable = watchers.get(physical);
  if (!byTable) return;
  const woken = new Set<() => void>();
  for (const [table, wakes] of byTable) if (!tables || tables.has(table)) for (const wake of wakes) woken.add(wake);
  wakeUps += woken.size;
  for (const wake of woken) wake();
};

const deliver = (physical: string, tables: ReadonlySet<string> | undefined, local: boolean) => {
  wakeWatchers(physical, tables);
  for (const listener of listeners) listener(physical, tables, local);
};

const flush = () => {
  scheduled = false;
  const batch = [...pending];
  pending.clear();
  for (const [physical, tables] of batch) deliver(physical, tables, true);
};

/** Called by recordChanges; coalesced per tick, delivered after the current call stack (the commit) has gone on. */
export const signalChanges = (physical: string, table: string) => {
  let tables = pending.get(physical);
  if (!tables) pending.set(physical, (tables = new Set()));
  tables.add(table);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
};

/** Hears every database's signals, this process's and (linked by start-change-events) other processes'; returns unsubscribe. */
export const onChanges = (listener: Listener) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Calls `wake` when one of `tables` of `physical` may have new events; returns unsubscribe. */
export const onTableChanges = (physical: string, tables: readonly string[], wake: () => void) => {
  let byTable = watchers.get(physical);
  if (!byTable) watchers.set(physical, (byTable = new Map()));
  for (const table of tables) {
    let wakes = byTable.get(table);
    if (!wakes) byTable.set(table, (wakes = new Set()));
    wakes.add(wake);
  }
  return () => {
    for (const table of tables) {
      const wakes = byTable.get(table);
      wakes?.delete(wake);
      if (wakes?.size === 0) byTable.delete(table);
    }
    if (byTable.size === 0 && watchers.get(physical) === byTable) watchers.delete(physical);
  };
};

/** A signal from another process (Redis): this process's listeners only. */
export const deliverChanges = (physical: string, tables?: ReadonlySet<string>) => deliver(physical, tables, false);

/** Feed wake-ups delivered so far in this process. */
export const feedWakeUps = () => wakeUps;
