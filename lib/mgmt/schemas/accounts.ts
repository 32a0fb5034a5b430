import { z } from "zod";
import { component, Timestamp } from "./common";

const SignupMode = z.enum(["operator", "open"]).meta({ description: "`operator`: only the operator adds accounts; `open`: anyone may sign up." });

export const Account = component(
  "Account",
  z
    .object({
      id: z.int(),
      email: z.string().meta({ format: "email" }),
      is_operator: z.boolean().meta({ description: "The install's first account; it manages accounts and settings." }),
      created_at: Timestamp,
    })
    .meta({ example: { id: 2, email: "teammate@example.com", is_operator: false, created_at: "2024-05-01T12:00:00.000Z" } }),
);

export const AccountCreate = component(
  "AccountCreate",
  z
    .strictObject({ email: z.email(), password: z.string().min(8).max(72).meta({ description: "8 to 72 bytes." }) })
    .meta({ example: { email: "teammate@example.com", password: "correct horse battery" } }),
);

export const Settings = component("Settings", z.object({ signup: SignupMode }).meta({ example: { signup: "operator" } }));

export const SettingsPatch = component("SettingsPatch", z.strictObject({ signup: SignupMode.optional() }).meta({ example: { signup: "open" } }));

export type Account = z.output<typeof Account>;
export type AccountCreate = z.input<typeof AccountCreate>;
export type Settings = z.output<typeof Settings>;
export type SettingsPatch = z.input<typeof SettingsPatch>;
export type SignupMode = z.output<typeof SignupMode>;
