// The sign-in providers of a database: the `google` and `oidc` presets found by OpenID Connect discovery, and
// `github` (OAuth 2.0 without OpenID: fixed endpoints, the user read from its API). Discovered configurations
// are kept a while per issuer and client; a failure is never kept, so a provider back up works at once.
import { createHash } from "node:crypto";
import * as oidc from "openid-client";
import type { App } from "../../app-type";
import { oauthConfig } from "../../config";
import { ApiError, notFound } from "../../errors";
import { LruMap } from "../../lru-map";
import { logger } from "../../ops/logger";
import type { AuthSettings } from "../../schema/types";

export type ProviderSettings = AuthSettings["providers"][number];

/** A provider ready to use: its openid-client configuration and how its user is read. */
export type Provider = {
  settings: ProviderSettings;
  /** Where identities of this provider are filed: `google`, `github`, or `oidc:<issuer>`. */
  key: string;
  /** OpenID Connect: an ID token is expected and checked (issuer, audience, nonce, signature). */
  openid: boolean;
  config: oidc.Configuration;
  /** GitHub's REST API base (github only). */
  apiUrl?: string;
};

const DISCOVERY_TTL_MS = 10 * 60_000;
const TIMEOUT_SECONDS = 10;
const discovered = new LruMap<string, { config: oidc.Configuration; at: number }>(200);

/** Plain http is allowed for a provider on this machine only (a development or test provider). */
const isLoopback = (url: URL) => url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

export const providerUnavailable = (provider: string, detail: string) =>
  new ApiError("provider_unavailable", `The sign-in provider "${provider}" could not be used: ${detail}. Try again later.`);

const discover = async (issuer: string, { client_id, client_secret, id }: ProviderSettings) => {
  const cacheKey = [issuer, client_id, createHash("sha256").update(client_secret).digest("hex")].join(" ");
  const hit = discovered.get(cacheKey);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const url = new URL(issuer);
  try {
    const config = await oidc.discovery(url, client_id, client_secret, oidc.ClientSecretPost(client_secret), {
      execute: isLoopback(url) ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_SECONDS,
    });
    discovered.set(cacheKey, { config, at: Date.now() });
    return config;
  } catch (err) {
    logger.warn({ err, issuer }, "OpenID Connect discovery failed");
    throw providerUnavailable(id, "its discovery document could not be read");
  }
};

const github = (app: App, settings: ProviderSettings): Provider => {
  const { githubUrl, githubApiUrl } = oauthConfig(app.config);
  const config = new oidc.Configuration(
    { issuer: githubUrl, authorization_endpoint: `${githubUrl}/login/oauth/authorize`, token_endpoint: `${githubUrl}/login/oauth/access_token` },
    settings.client_id,
    settings.client_secret,
    oidc.ClientSecretPost(settings.client_secret),
  );
  config.timeout = TIMEOUT_SECONDS;
  if (isLoopback(new URL(githubUrl))) oidc.allowInsecureRequests(config);
  return { settings, key: "github", openid: false, config, apiUrl: githubApiUrl };
};

/** `oidc:<issuer>`, or its SHA-256 when that is longer than the identities table keeps. */
const issuerKey = (issuer: string) => {
  const key = `oidc:${issuer}`;
  return key.length <= 255 ? key : `oidc:sha256:${createHash("sha256").update(issuer).digest("hex")}`;
};

/** The provider a path names (`google`, `github`, `oidc`), ready to use; 404 when the database has none such. */
export const resolveProvider = async (app: App, providers: ProviderSettings[], name: string): Promise<Provider> => {
  const settings = providers.find((p) => p.id === name);
  if (!settings) throw notFound(`No sign-in provider "${name}" is configured for this database.`);
  if (settings.id === "github") return github(app, settings);
  const issuer = settings.id === "google" ? oauthConfig(app.config).googleIssuer : settings.issuer!;
  const config = await discover(issuer, settings);
  return { settings, key: settings.id === "google" ? "google" : issuerKey(config.serverMetadata().issuer), openid: true, config };
};

/** What the sign-in asks the provider for. */
export const scopeOf = (provider: Provider) => (provider.openid ? "openid email profile" : "read:user user:email");
