import { z } from "zod";
import { component, INSTANCE_EXAMPLE, Timestamp } from "./common";

export const KeyCreate = component(
  "KeyCreate",
  z
    .strictObject({
      name: z
        .string()
        .min(1)
        .max(100)
        .refine((v) => v.trim().length > 0, { message: "name must be text of 1 to 100 characters", params: { code: "invalid_name" } })
        .optional()
        .meta({ default: "API key" }),
      database: z.string().nullable().optional().meta({ description: "Instance the key is limited to; omitted or null = account-wide." }),
    })
    .meta({ example: { name: "server", database: INSTANCE_EXAMPLE } }),
);

export const Key = component(
  "Key",
  z
    .object({
      id: z.int(),
      name: z.string(),
      key: z.string().meta({ description: "The secret key, `sk_...`." }),
      database: z.string().nullable().meta({ description: "Instance the key is limited to, or null for account-wide." }),
      created_at: Timestamp,
    })
    .meta({
      example: { id: 7, name: "server", key: "sk_4mQ2yZ8c1vR0pLkT9wXn3bJ6hF5sD7aE2uK8oN1iG0c", database: INSTANCE_EXAMPLE, created_at: "2024-05-01T12:00:00.000Z" },
    }),
);

export type KeyCreate = z.input<typeof KeyCreate>;
export type Key = z.output<typeof Key>;
