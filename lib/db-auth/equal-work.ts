// Known and unknown emails must cost the same: a route that finds no user hashes a dummy and drops a mail
// where a known user's would be queued. The counters let tests check that both paths did the same work.
import bcrypt from "bcrypt";
import type { App } from "../app-type";

export type WorkCounts = { hashes: number };

const counts = new WeakMap<App, WorkCounts>();

/** The app's counters of password hashes computed or compared by the auth routes. */
export const workCounts = (app: App): WorkCounts => {
  let c = counts.get(app);
  if (!c) counts.set(app, (c = { hashes: 0 }));
  return c;
};

export const countHash = (app: App) => {
  workCounts(app).hashes++;
};

/** A password's bcrypt hash at the app's cost, counted (sign-up hashes it whether or not the login is taken). */
export const hashPassword = async (app: App, password: string) => {
  countHash(app);
  return bcrypt.hash(password, app.config.bcryptCost);
};

// Compared against when the login is unknown, so both cases cost one bcrypt comparison of the same cost.
const dummyHashes = new Map<number, string>();
export const dummyHash = (cost: number) => {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = bcrypt.hashSync("tabula-no-such-user", cost)));
  return hash;
};
