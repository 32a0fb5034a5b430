"use client";
// The Auth settings' sign-in options: email verification, redirect URLs, MFA and one OAuth provider. The
// provider's client secret is write-only: the API never shows it, and leaving the box empty keeps the stored one.
import type { AuthSettings } from "../api/use-db-auth";
import { Field, SelectInput, TextArea, TextInput } from "../ui/field";

export type ProviderDraft = { id: "" | "google" | "github" | "oidc"; client_id: string; client_secret: string; issuer: string; stored: boolean };

export const providerDraft = (current: AuthSettings): ProviderDraft => {
  const p = current.providers[0];
  return p ? { id: p.id, client_id: p.client_id, client_secret: "", issuer: p.issuer ?? "", stored: true } : { id: "", client_id: "", client_secret: "", issuer: "", stored: false };
};

/** The providers to save: the edited first one (its secret only when typed) and the others as they are. */
export const providersFrom = (current: AuthSettings, p: ProviderDraft): AuthSettings["providers"] => {
  const rest = current.providers.slice(1);
  if (!p.id) return rest;
  const edited = { id: p.id, client_id: p.client_id.trim(), ...(p.client_secret ? { client_secret: p.client_secret } : {}), ...(p.id === "oidc" ? { issuer: p.issuer.trim() } : {}) };
  return [edited, ...rest];
};

type Props = {
  draft: AuthSettings;
  set: (patch: Partial<AuthSettings>) => void;
  redirects: string;
  setRedirects: (text: string) => void;
  provider: ProviderDraft;
  setProvider: (p: ProviderDraft) => void;
  errors: Record<string, string>;
};

const firstError = (errors: Record<string, string>, prefix: string) => Object.entries(errors).find(([k]) => k.startsWith(prefix))?.[1];

export const AuthSignInSettings = ({ draft, set, redirects, setRedirects, provider, setProvider, errors }: Props) => {
  const edit = (patch: Partial<ProviderDraft>) => setProvider({ ...provider, ...patch });
  return (
    <div className="mt-4 grid gap-4 border-t border-slate-100 pt-4 sm:grid-cols-2">
      <Field label="Email verification" htmlFor="auth-verification" hint="Required: users cannot log in until they confirm their address." error={errors.verification}>
        <SelectInput id="auth-verification" value={draft.verification} onChange={(e) => set({ verification: e.target.value as AuthSettings["verification"] })}>
          <option value="off">Off</option>
          <option value="required">Required</option>
        </SelectInput>
      </Field>
      <Field label="Two-factor authentication (TOTP)" htmlFor="auth-mfa" error={errors.mfa}>
        <SelectInput id="auth-mfa" value={draft.mfa} onChange={(e) => set({ mfa: e.target.value as AuthSettings["mfa"] })}>
          <option value="off">Off</option>
          <option value="optional">Optional per user</option>
          <option value="required">Required of every user</option>
        </SelectInput>
      </Field>
      <Field className="sm:col-span-2" label="Redirect URLs, one per line" htmlFor="auth-redirects" hint="Where mailed links and provider sign-ins may send users, e.g. https://app.example.com/auth/callback" error={firstError(errors, "redirect_urls")}>
        <TextArea id="auth-redirects" rows={2} value={redirects} onChange={(e) => setRedirects(e.target.value)} />
      </Field>
      <fieldset className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
        <legend className="mb-2 text-xs font-semibold text-slate-800">Sign-in provider</legend>
        <Field label="Provider" htmlFor="auth-provider">
          <SelectInput id="auth-provider" value={provider.id} onChange={(e) => edit({ id: e.target.value as ProviderDraft["id"] })}>
            <option value="">None</option>
            <option value="google">Google</option>
            <option value="github">GitHub</option>
            <option value="oidc">OpenID Connect</option>
          </SelectInput>
        </Field>
        {provider.id && (
          <>
            <Field label="Client ID" htmlFor="auth-client-id" error={firstError(errors, "providers[0].client_id")}>
              <TextInput id="auth-client-id" value={provider.client_id} onChange={(e) => edit({ client_id: e.target.value })} invalid={!!firstError(errors, "providers[0].client_id")} />
            </Field>
            <Field
              label="Client secret"
              htmlFor="auth-client-secret"
              hint={provider.stored ? "Stored; never shown. Leave empty to keep it." : "Never shown again once saved."}
              error={firstError(errors, "providers[0].client_secret")}
            >
              <TextInput
                id="auth-client-secret"
                type="password"
                autoComplete="off"
                placeholder={provider.stored ? "•••••••• (unchanged)" : ""}
                value={provider.client_secret}
                onChange={(e) => edit({ client_secret: e.target.value })}
                invalid={!!firstError(errors, "providers[0].client_secret")}
              />
            </Field>
            {provider.id === "oidc" && (
              <Field label="Issuer URL" htmlFor="auth-issuer" error={firstError(errors, "providers[0].issuer")}>
                <TextInput id="auth-issuer" value={provider.issuer} onChange={(e) => edit({ issuer: e.target.value })} invalid={!!firstError(errors, "providers[0].issuer")} />
              </Field>
            )}
          </>
        )}
      </fieldset>
    </div>
  );
};
