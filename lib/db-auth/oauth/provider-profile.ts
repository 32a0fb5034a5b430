// The callback's talk with the provider: the authorization code exchanged (PKCE verifier, state, and for
// OpenID Connect the ID token's signature, issuer, audience and nonce checked by openid-client), then who the
// user is: the ID token's claims (userinfo when it carries no email), or GitHub's /user and /user/emails.
import * as oidc from "openid-client";
import { ApiError } from "../../errors";
import { logger } from "../../ops/logger";
import { type Provider, providerUnavailable } from "./providers";

/** Who the provider says signed in: its stable subject, and the email with whether the provider verified it. */
export type Profile = { subject: string; email?: string; emailVerified: boolean };

export type FlowChecks = { callbackUrl: URL; verifier: string; state: string; nonce: string };

/** An ID token that does not belong to this sign-in (another nonce, issuer or audience, expired): refused. */
const notThisSignIn = (claim: string) =>
  new ApiError("bad_request", `The provider's ID token does not match this sign-in (${claim}); start the sign-in again.`);

// openid-client's codes for an ID token whose claims (nonce, iss, aud, azp) or times do not fit.
const ID_TOKEN_MISMATCH = new Set(["OAUTH_JWT_CLAIM_COMPARISON_FAILED", "OAUTH_JWT_TIMESTAMP_CHECK_FAILED"]);

const asFailure = (provider: Provider, err: unknown): ApiError => {
  if (err instanceof ApiError) return err;
  // openid-client wraps oauth4webapi's error, whose cause names the claim.
  const e = err as { code?: string; cause?: { claim?: string; cause?: { claim?: string } } } | undefined;
  if (e?.code && ID_TOKEN_MISMATCH.has(e.code)) return notThisSignIn(e.cause?.claim ?? e.cause?.cause?.claim ?? "its times");
  logger.warn({ err, provider: provider.settings.id }, "OAuth provider answer refused");
  return providerUnavailable(provider.settings.id, "it did not answer the sign-in as expected");
};

const asString = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

const openIdProfile = async (provider: Provider, tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>): Promise<Profile> => {
  let claims: Record<string, unknown> = { ...tokens.claims() };
  const subject = asString(claims.sub)!;
  if (!asString(claims.email) && provider.config.serverMetadata().userinfo_endpoint) {
    claims = { ...claims, ...(await oidc.fetchUserInfo(provider.config, tokens.access_token, subject)) };
  }
  return { subject, email: asString(claims.email), emailVerified: claims.email_verified === true };
};

const githubJson = async (provider: Provider, path: string, token: string) => {
  const response = await fetch(`${provider.apiUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "user-agent": "tabula", "x-github-api-version": "2022-11-28" },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
  return (await response.json()) as unknown;
};

/** GitHub has no ID token: the user's id from /user, the primary verified address from /user/emails. */
const githubProfile = async (provider: Provider, token: string): Promise<Profile> => {
  const user = (await githubJson(provider, "/user", token)) as { id?: unknown; email?: unknown };
  if (typeof user?.id !== "number" && typeof user?.id !== "string") throw new Error("GitHub /user has no id");
  const emails = await githubJson(provider, "/user/emails", token);
  if (!Array.isArray(emails)) throw new Error("GitHub /user/emails is not a list");
  const verified = emails.find((e) => e?.primary === true && e?.verified === true && asString(e?.email));
  if (verified) return { subject: String(user.id), email: verified.email, emailVerified: true };
  const primary = emails.find((e) => e?.primary === true && asString(e?.email));
  return { subject: String(user.id), email: asString(primary?.email) ?? asString(user.email), emailVerified: false };
};

/** Exchanges the code and reads the profile; 400 for an ID token of another sign-in, 502 for anything else gone wrong. */
export const readProfile = async (provider: Provider, { callbackUrl, verifier, state, nonce }: FlowChecks): Promise<Profile> => {
  try {
    const tokens = await oidc.authorizationCodeGrant(provider.config, callbackUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      ...(provider.openid ? { expectedNonce: nonce, idTokenExpected: true } : {}),
    });
    const profile = provider.openid ? await openIdProfile(provider, tokens) : await githubProfile(provider, tokens.access_token);
    // What the identities table keeps: a subject of at most 255 characters (OpenID Connect's own bound).
    if (!profile.subject || profile.subject.length > 255) throw new Error("the provider's subject is empty or longer than 255 characters");
    return profile;
  } catch (err) {
    throw asFailure(provider, err);
  }
};
