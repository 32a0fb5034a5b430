// How many change feeds are open, per credential and in this process: every open feed holds a socket and is
// read on each wake-up, so one key cannot open enough of them to slow every tenant.
import type { App } from "../../app-type";
import type { Caller } from "../../api/authenticate";
import { ApiError } from "../../errors";
import { eventsConfig } from "../events-config";

type Slots = { total: number; byCredential: Map<string, number> };

const slotsByApp = new WeakMap<App, Slots>();

const credentialOf = (caller: Caller) => (caller.kind === "key" ? `key:${caller.keyId}` : `user:${caller.databaseId}:${caller.userId}`);

const refuse = (message: string) => new ApiError("rate_limited", message, { headers: { "Retry-After": "1" } });

/** Takes a feed slot for `caller` (429 past a cap) and returns the function that gives it back (once). */
export const takeFeedSlot = (app: App, caller: Caller): (() => void) => {
  const { feedsPerKey, feedsPerInstall } = eventsConfig(app.config);
  let slots = slotsByApp.get(app);
  if (!slots) slotsByApp.set(app, (slots = { total: 0, byCredential: new Map() }));
  const credential = credentialOf(caller);
  const held = slots.byCredential.get(credential) ?? 0;
  const who = caller.kind === "key" ? "This key" : "This user";
  if (held >= feedsPerKey) throw refuse(`${who} already has ${held} change feeds open, the most one credential may have (${feedsPerKey}); close one and retry.`);
  if (slots.total >= feedsPerInstall) throw refuse(`This server already serves ${slots.total} change feeds, the most it serves at once (${feedsPerInstall}); retry later.`);
  slots.total++;
  slots.byCredential.set(credential, held + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    slots.total--;
    const left = (slots.byCredential.get(credential) ?? 1) - 1;
    if (left > 0) slots.byCredential.set(credential, left);
    else slots.byCredential.delete(credential);
  };
};
