import type { Ctx } from "../../meta/context";
import { readSettings } from "../../settings/read-settings";

export type GetSettingsInput = Record<string, never>;

/** GET /settings (the route allows only the operator: the settings say how the install is run). */
export const getSettings = async (ctx: Ctx, _input: GetSettingsInput) => readSettings(ctx.app);
