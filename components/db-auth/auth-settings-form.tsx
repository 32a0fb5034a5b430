"use client";
import { type FormEvent, useEffect, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { whyNot } from "../api/can";
import type { Table } from "../api/types";
import { type AuthSettings, useRotateSecret, useSaveAuthSettings } from "../api/use-db-auth";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Checkbox, Field, SelectInput, TextArea, TextInput } from "../ui/field";
import { LockNote } from "../ui/lock-note";
import { FormError } from "../ui/states";
import { AuthSignInSettings, providerDraft, providersFrom } from "./auth-sign-in-settings";
import { CreateUsersTable, fitsUsersTable, withFittingTable } from "./create-users-table";
import { isSecret, isTextual } from "@/lib/schema/type-traits";

/** Users table, login and password columns, token lifetime, sign-up, CORS origins, sign-in options; rotate the signing secret. */
type Props = { instance: string; tables: Table[]; current: AuthSettings; /** Owner or admin; others see the settings disabled. */ canAdmin: boolean };

export const AuthSettingsForm = ({ instance, tables, current, canAdmin }: Props) => {
  const save = useSaveAuthSettings(instance);
  const rotate = useRotateSecret(instance);
  const [draft, setDraft] = useState(() => withFittingTable(current, tables));
  const [origins, setOrigins] = useState(current.cors_origins.join("\n"));
  const [redirects, setRedirects] = useState(current.redirect_urls.join("\n"));
  const [provider, setProvider] = useState(() => providerDraft(current));
  const [confirmRotate, setConfirmRotate] = useState(false);
  useEffect(() => {
    // A new table (e.g. users just created) must not reset the draft: only new saved settings do.
    setDraft(withFittingTable(current, tables));
    setProvider(providerDraft(current));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);
  const users = tables.find((t) => t.name === draft.users_table);
  const textColumns = users?.columns.filter((c) => isTextual(c)) ?? [];
  const passwordColumns = users?.columns.filter((c) => isSecret(c)) ?? [];
  const errors = fieldErrors(save.error);
  const set = (patch: Partial<AuthSettings>) => setDraft({ ...draft, ...patch });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ ...draft, cors_origins: origins.split(/[\s,]+/).filter(Boolean), redirect_urls: redirects.split(/\s+/).filter(Boolean), providers: providersFrom(current, provider) });
  };
  return (
    <form onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" aria-label="Auth settings">
      <h2 className="text-sm font-semibold text-slate-900">Database auth</h2>
      <p className="mt-1 text-sm text-slate-600">
        Browser and mobile apps log their users in at <code className="font-mono">POST /v1/{instance}/auth/login</code> and get a JWT (HS256). Row policies below
        decide what each user may do; a table without a policy is closed to them.
      </p>
      {!canAdmin && <LockNote level="admin">You can read these settings.</LockNote>}
      {!tables.some(fitsUsersTable) && (
        <CreateUsersTable
          instance={instance}
          tables={tables}
          disabled={!canAdmin}
          onCreated={(t) => set({ users_table: t.name, login_column: t.login, password_column: t.password })}
        />
      )}
      <fieldset disabled={!canAdmin} title={canAdmin ? undefined : whyNot("admin")} className="min-w-0">
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <Checkbox label="Enable database auth" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          <Checkbox label="Allow sign-up (POST /auth/signup)" checked={draft.signup} onChange={(e) => set({ signup: e.target.checked })} />
          <Field label="Users table" htmlFor="auth-users" error={errors.users_table}>
            <SelectInput id="auth-users" value={draft.users_table} onChange={(e) => set({ users_table: e.target.value })} invalid={!!errors.users_table}>
              {!users && <option value={draft.users_table}>{draft.users_table} (missing)</option>}
              {tables.map((t) => (
                <option key={t.name}>{t.name}</option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Login column (email or username, unique)" htmlFor="auth-login" error={errors.login_column}>
            <SelectInput id="auth-login" value={draft.login_column} onChange={(e) => set({ login_column: e.target.value })} invalid={!!errors.login_column}>
              {!textColumns.some((c) => c.name === draft.login_column) && <option value={draft.login_column}>{draft.login_column}</option>}
              {textColumns.map((c) => (
                <option key={c.name}>{c.name}</option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Password column (type password)" htmlFor="auth-password" error={errors.password_column}>
            <SelectInput id="auth-password" value={draft.password_column} onChange={(e) => set({ password_column: e.target.value })} invalid={!!errors.password_column}>
              {!passwordColumns.some((c) => c.name === draft.password_column) && <option value={draft.password_column}>{draft.password_column}</option>}
              {passwordColumns.map((c) => (
                <option key={c.name}>{c.name}</option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Token lifetime (seconds, 1 to 2592000)" htmlFor="auth-ttl" error={errors.token_ttl_seconds}>
            <TextInput id="auth-ttl" type="number" value={draft.token_ttl_seconds} onChange={(e) => set({ token_ttl_seconds: Number(e.target.value) })} invalid={!!errors.token_ttl_seconds} />
          </Field>
          <Field className="sm:col-span-2" label="Allowed origins (CORS), one per line" htmlFor="auth-origins" hint='e.g. https://app.example.com, or * for any origin' error={Object.entries(errors).find(([k]) => k.startsWith("cors_origins"))?.[1]}>
            <TextArea id="auth-origins" rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} />
          </Field>
        </div>
        <AuthSignInSettings draft={draft} set={set} redirects={redirects} setRedirects={setRedirects} provider={provider} setProvider={setProvider} errors={errors} />
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <Button type="submit" variant="primary" pending={save.isPending}>
            Save auth settings
          </Button>
          <Button variant="secondary" onClick={() => setConfirmRotate(true)} disabled={!current.enabled}>
            Rotate signing secret…
          </Button>
          {save.isSuccess && <span className="text-sm text-emerald-700">Saved.</span>}
          {rotate.isSuccess && <span className="text-sm text-emerald-700">Secret rotated: every user must log in again.</span>}
        </div>
      </fieldset>
      {Object.keys(errors).length === 0 && <div className="mt-3"><FormError error={save.error ?? rotate.error} /></div>}
      <ConfirmDialog
        open={confirmRotate}
        onClose={() => setConfirmRotate(false)}
        title="Rotate the signing secret?"
        consequences={<p>Every token issued so far stops working at once: all users are logged out and must log in again.</p>}
        confirmLabel="Rotate secret"
        onConfirm={() => rotate.mutateAsync().then(() => setConfirmRotate(false))}
      />
    </form>
  );
};
