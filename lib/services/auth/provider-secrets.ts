// OAuth client secrets are write-only: the management API answers a fixed mask in their place, and a PUT that
// leaves a provider's secret out (or sends the mask back) keeps the one stored for that provider.
import { validationFailed } from "../../errors";
import type { AuthSettings } from "../../schema/types";

export const SECRET_MASK = "********";

type Provider = AuthSettings["providers"][number];
type ProviderInput = Omit<Provider, "client_secret"> & { client_secret?: string };

/** The providers with each client secret replaced by the mask. */
export const maskProviders = (providers: Provider[]): Provider[] => providers.map((p) => ({ ...p, client_secret: SECRET_MASK }));

/** Each provider without a new secret takes the stored one of the same id (and client id when several share the id); none stored is a 422. */
export const keepProviderSecrets = (stored: Provider[], input: ProviderInput[]): Provider[] => {
  const errors: { field: string; code: string; message: string }[] = [];
  const providers = input.map((p, i) => {
    if (p.client_secret !== undefined && p.client_secret !== SECRET_MASK) return { ...p, client_secret: p.client_secret };
    const same = stored.filter((s) => s.id === p.id);
    const match = same.length > 1 ? same.find((s) => s.client_id === p.client_id) : same[0];
    if (!match) errors.push({ field: `providers[${i}].client_secret`, code: "required", message: `a client secret is required: none is stored for the "${p.id}" provider` });
    return { ...p, client_secret: match?.client_secret ?? "" };
  });
  if (errors.length) throw validationFailed(errors);
  return providers;
};
