import bcrypt from "bcrypt";
import type { App } from "../../app-type";

// The rule for account passwords (8 characters, at most 72 bytes) is their zod schema (lib/contract/schemas/accounts.ts).
export const hashPassword = (app: App, password: string) => bcrypt.hash(password, app.config.bcryptCost);
