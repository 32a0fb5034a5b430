"use client";
import type { Table } from "../api/types";
import type { AuthSettings } from "../api/use-db-auth";
import { useCreateTable } from "../api/use-schema-mutations";
import { Button } from "../ui/button";
import { FormError } from "../ui/states";
import { isSecret, isTextual } from "@/lib/schema/type-traits";

/** A table users can log in with: a text column to log in with and a password column. */
export const fitsUsersTable = (t: Table) =>
  t.columns.some((c) => isTextual(c)) && t.columns.some((c) => isSecret(c));

/**
 * Settings to start from: the saved ones, except that a users table that does not exist (auth not set up
 * yet) becomes the first table that fits, with its email/username and password columns.
 */
export const withFittingTable = (current: AuthSettings, tables: Table[]): AuthSettings => {
  if (current.enabled || tables.some((t) => t.name === current.users_table)) return current;
  const fit = tables.find(fitsUsersTable);
  if (!fit) return current;
  const texts = fit.columns.filter((c) => isTextual(c));
  const login = texts.find((c) => /email|user|login/.test(c.name) && c.unique) ?? texts.find((c) => c.unique) ?? texts.find((c) => /email|user|login/.test(c.name)) ?? texts[0];
  const password = fit.columns.find((c) => isSecret(c))!;
  return { ...current, users_table: fit.name, login_column: login.name, password_column: password.name };
};

/** The first of these names the database does not use yet. */
const freeName = (tables: Table[]) => ["users", "app_users", "auth_users", "login_users"].find((n) => !tables.some((t) => t.name === n)) ?? `users_${Date.now() % 10_000}`;

type Props = { instance: string; tables: Table[]; disabled: boolean; onCreated: (table: { name: string; login: string; password: string }) => void };

/** Offered when no table can hold logins: one click makes `users (email unique, password)` and selects it. */
export const CreateUsersTable = ({ instance, tables, disabled, onCreated }: Props) => {
  const create = useCreateTable(instance);
  const name = freeName(tables);
  const make = () =>
    create.mutate(
      {
        name,
        columns: [
          { name: "email", type: "varchar", nullable: false, unique: true },
          { name: "password", type: "password", nullable: false },
        ],
      },
      { onSuccess: () => onCreated({ name, login: "email", password: "password" }) },
    );
  return (
    <div role="note" aria-label="No users table" className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-3 text-sm text-amber-900">
      <p>No table of this database can hold logins: it needs a text column to log in with (an email) and a password column.</p>
      <Button className="mt-2" size="sm" variant="primary" onClick={make} pending={create.isPending} disabled={disabled}>
        Create a users table (email, password)
      </Button>
      <div className="mt-2">
        <FormError error={create.error} />
      </div>
    </div>
  );
};
