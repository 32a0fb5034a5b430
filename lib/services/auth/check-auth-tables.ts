import { type FieldError, validationFailed } from "../../errors";
import type { AuthSettings, DatabaseSchema } from "../../schema/types";
import { isSecret, isTextual } from "../../schema/type-traits";

/** With auth on, the users table must exist with a unique varchar/text login column and a password column. */
export const checkAuthTables = (schema: DatabaseSchema, s: AuthSettings) => {
  if (!s.enabled) return;
  const errors: FieldError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ field, code, message });
  const table = schema.tables.get(s.users_table);
  if (!table) fail("users_table", "unknown_table", `table "${s.users_table}" does not exist`);
  else {
    const login = table.columns.find((c) => c.name === s.login_column);
    if (!login) fail("login_column", "unknown_column", `column "${s.login_column}" does not exist in "${table.name}"`);
    else if (!isTextual(login)) fail("login_column", "invalid_type", "the login column must be varchar or text (an email or a username)");
    else if (!login.unique) fail("login_column", "not_unique", "the login column must be unique, so a login names one user");
    const password = table.columns.find((c) => c.name === s.password_column);
    if (!password) fail("password_column", "unknown_column", `column "${s.password_column}" does not exist in "${table.name}"`);
    else if (!isSecret(password)) fail("password_column", "invalid_type", "the password column must have type password (bcrypt)");
    if (s.email_column !== null) {
      const email = table.columns.find((c) => c.name === s.email_column);
      if (!email) fail("email_column", "unknown_column", `column "${s.email_column}" does not exist in "${table.name}"`);
      else if (!isTextual(email)) fail("email_column", "invalid_type", "the email column must be varchar or text");
    }
  }
  if (errors.length) throw validationFailed(errors);
};
