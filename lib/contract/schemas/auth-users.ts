// The users admin of database auth (GET/POST /api/v1/databases/{instance}/auth/users…): a page of users with the
// state the install keeps beside their rows, and the query that searches it.
import { z } from "zod";
import { component } from "./common";

export const AuthUsersQuery = z.object({
  q: z.string().max(320).optional().meta({ description: "Only users whose login (or email column) contains this text, case-insensitively." }),
  _limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: "How many users, by id (default 50, at most 200)." }),
  _after: z.coerce.number().int().min(0).optional().meta({ description: "Only users with a greater id: the previous page's `next_after`." }),
});

export const AuthUser = component(
  "AuthUser",
  z
    .object({
      id: z.int(),
      login: z.string().meta({ description: "The login column's value." }),
      email: z.string().nullable().meta({ description: "The column mails go to (the login column without an email column)." }),
      verified: z.boolean(),
      disabled: z.boolean(),
      providers: z.array(z.string()).meta({ description: "OAuth providers linked to the user." }),
      mfa: z.boolean().meta({ description: "Whether the user has a confirmed TOTP factor." }),
      sessions: z.int().meta({ description: "Sessions (refresh-token families) not ended." }),
      created_at: z.string(),
    })
    .meta({ description: "A user of the database's users table, as the users admin shows it (never its password)." }),
);

export const AuthUsersPage = component(
  "AuthUsersPage",
  z.object({
    users: z.array(AuthUser),
    next_after: z.int().nullable().meta({ description: "Pass as `_after` for the next page; null on the last one." }),
  }),
);

export const AuthUserActionResult = component("AuthUserActionResult", z.object({ user: AuthUser }));

export type AuthUser = z.output<typeof AuthUser>;
