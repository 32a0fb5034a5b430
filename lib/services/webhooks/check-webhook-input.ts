// What a webhook may point at and listen to: an http(s) URL whose addresses pass the outbound rules (checked
// again at every attempt, since DNS may change), and tables of the database (joins have no events).
import type { App } from "../../app-type";
import { type FieldError, validationFailed } from "../../errors";
import { eventsConfig } from "../../events/events-config";
import type { DatabaseSchema } from "../../schema/types";
import { resolveTarget } from "../../webhooks/target-address";

export const checkWebhookInput = async (app: App, schema: DatabaseSchema, input: { url?: string; tables?: string[] | null }) => {
  const errors: FieldError[] = [];
  if (input.url !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(input.url);
    } catch {
      errors.push({ field: "url", code: "invalid_url", message: "must be an absolute http(s) URL" });
    }
    if (url && url.protocol !== "http:" && url.protocol !== "https:") errors.push({ field: "url", code: "invalid_url", message: "must use http or https" });
    else if (url) {
      // A name that does not resolve yet is accepted; every attempt resolves and checks it again.
      const target = await resolveTarget(url.hostname, eventsConfig(app.config).allowPrivate).catch(() => undefined);
      if (target && "refused" in target) errors.push({ field: "url", code: "refused_address", message: target.refused });
    }
  }
  (input.tables ?? []).forEach((name, i) => {
    if (schema.joins?.has(name)) errors.push({ field: `tables[${i}]`, code: "join", message: `"${name}" is a join; joins have no change events` });
    else if (!schema.tables.has(name)) errors.push({ field: `tables[${i}]`, code: "unknown_table", message: `no table "${name}" in this database` });
  });
  if (errors.length) throw validationFailed(errors);
};
