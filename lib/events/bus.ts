/**
 * What changed in the metadata, published after the writing transaction commits. Subscribers drop the
 * caches that depend on it. With REDIS_URL the same events reach every other process (lib/events/redis-link.ts).
 */
export type AppEvent =
  /** Tables, columns, indexes, joins, policies or auth settings of one database changed (or it was renamed). */
  | { kind: "schema"; databaseId: number; instance: string; physical: string }
  /** The pre hooks of one database changed (its schema stays). */
  | { kind: "hooks"; databaseId: number; instance: string }
  /** A database was created or deleted (its keys die with it). */
  | { kind: "database"; databaseId: number; instance: string; physical: string }
  /** A secret key was created, regenerated or revoked. */
  | { kind: "keys" }
  /** Account or instance settings changed (sign-up mode, accounts). */
  | { kind: "settings" }
  /** A plan's limits, or the plan of an account, changed. */
  | { kind: "plans" }
  /** A workspace's members or their roles changed. */
  | { kind: "team"; ownerId: number }
  /** A database's public docs or their custom domain changed (switched, set, verified, failing). */
  | { kind: "docs"; databaseId: number };

export type EventListener = (event: AppEvent) => void;

export type EventBus = {
  /** A change made by this process: its listeners, then every forwarder (the other processes). */
  publish: (event: AppEvent) => void;
  /** A change made by another process: this process's listeners only. */
  deliver: (event: AppEvent) => void;
  /** Returns the function that unsubscribes. */
  subscribe: (listener: EventListener) => () => void;
  /** Sends this process's events on (to Redis); returns the function that stops it. */
  forward: (forwarder: EventListener) => () => void;
};

/** Listeners run synchronously in subscription order, so a publish is visible to the very next request. */
export const createEventBus = (): EventBus => {
  const listeners = new Set<EventListener>();
  const forwarders = new Set<EventListener>();
  const deliver = (event: AppEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    publish: (event) => {
      deliver(event);
      for (const forwarder of forwarders) forwarder(event);
    },
    deliver,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    forward: (forwarder) => {
      forwarders.add(forwarder);
      return () => forwarders.delete(forwarder);
    },
  };
};
