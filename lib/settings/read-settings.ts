import type { App } from "../app-type";
import { settingsDb } from "./settings-table";

export type SignupMode = "open" | "operator";

/** Install-wide settings. `signup`: "operator" (default) = only the operator adds accounts; "open" = anyone. */
export type Settings = { signup: SignupMode };

const DEFAULT_SETTINGS: Settings = { signup: "operator" };

export const readSettings = async (app: App): Promise<Settings> => {
  const rows = await settingsDb(app.engine.meta).selectFrom("settings").select(["name", "value"]).execute();
  const stored = Object.fromEntries(rows.map((r) => [r.name, r.value]));
  return { signup: stored.signup === "open" ? "open" : DEFAULT_SETTINGS.signup };
};
