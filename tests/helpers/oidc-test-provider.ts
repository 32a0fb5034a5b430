// A real OpenID Connect provider on loopback (oidc-provider) for the sign-in tests. Its login and consent step
// is a tiny interaction handler that signs in whichever account the test named last (`provider.signInAs`),
// so a test drives the whole flow over HTTP by following redirects, as a browser would.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export type TestAccount = { sub: string; email?: string; email_verified?: boolean };

export type OidcTestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next interaction signs in. */
  signInAs: (account: TestAccount) => void;
  close: () => Promise<void>;
};

export const startOidcProvider = async (redirectUris: string[]): Promise<OidcTestProvider> => {
  const accounts = new Map<string, TestAccount>();
  let next: TestAccount | undefined;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "tabula-test";
  const clientSecret = "tabula-test-secret-0123456789abcdef";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] }],
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ ...account }) } : undefined;
    },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  server.on("request", async (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return provider.callback()(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const account = next!;
      accounts.set(account.sub, account);
      const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope("openid email profile");
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      next = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** A cookie jar and redirect follower: GETs `url` and each Location while it stays on hosts other than `stopAt`. */
export const followRedirects = async (url: string, stopAt: string, jar = new Map<string, string>()) => {
  let current = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(current, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`no redirect from ${current}: ${response.status} ${await response.text()}`);
    current = new URL(location, current).href;
    if (current.startsWith(stopAt)) return current;
  }
  throw new Error("too many redirects");
};
