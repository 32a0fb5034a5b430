/**
 * What changed in the metadata, published after the writing transaction commits. Subscribers drop the
 * caches that depend on it. In-process today; the scale-out work forwards the same events through Redis.
 */
export type AppEvent =
  /** Tables, columns, joins, policies or auth settings of one database changed (or it was renamed). */
  | { kind: "schema"; databaseId: number; instance: string; physical: string }
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
  publish: (event: AppEvent) => void;
  /** Returns the function that unsubscribes. */
  subscribe: (listener: EventListener) => () => void;
};

/** Listeners run synchronously in subscription order, so a publish is visible to the very next request. */
export const createEventBus = (): EventBus => {
  const listeners = new Set<EventListener>();
  return {
    publish: (event) => {
      for (const listener of listeners) listener(event);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
};
