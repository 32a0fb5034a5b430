import type { App } from "../app-type";
import { clientAddressFromHeaders } from "../http/client-address";
import { errorResponse } from "../http/error-response";
import { toWebResponse } from "../http/web-adapter";
import { type SignInAttempt, signInLimited } from "./sign-in-limiter";
import { SIGN_IN_LIMITED_ERROR } from "./sign-in-errors";

/** The dashboard's sign-in attempt as the limiter counts it, from next-auth's form fields and the headers. */
export const dashboardSignInAttempt = (app: App, email: unknown, header: (name: string) => string | null | undefined): SignInAttempt => ({
  realm: "dashboard",
  login: typeof email === "string" ? email : "",
  address: clientAddressFromHeaders(header, app.config.trustProxy),
});

type RouteHandler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * Wraps next-auth's route: each credentials sign-in counts before the password is checked (authorize gives a
 * right one back); over the limit it is a 429 with Retry-After, whose `url` carries the error the way next-auth's
 * signIn() reads it.
 */
export const limitDashboardSignIn =
  <C>(getApp: () => Promise<App>, handler: RouteHandler<C>): RouteHandler<C> =>
  async (request, context) => {
    if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/callback/credentials")) return handler(request, context);
    const app = await getApp();
    const form = new URLSearchParams(await request.clone().text());
    const wait = await app.signInLimiter.count(dashboardSignInAttempt(app, form.get("email"), (name) => request.headers.get(name)));
    if (!wait) return handler(request, context);
    const out = errorResponse(signInLimited(wait));
    const body = { ...(JSON.parse(out.body!) as object), url: new URL(`/login?error=${SIGN_IN_LIMITED_ERROR}`, request.url).toString() };
    return toWebResponse({ ...out, body: JSON.stringify(body) });
  };
