import type { App } from "../app-type";
import { clientAddressFromHeaders } from "../http/client-address";
import { errorResponse } from "../http/error-response";
import { toWebResponse } from "../http/web-adapter";
import { readSignInForm, type SignInForm } from "./read-sign-in-form";
import { type SignInAttempt, signInLimited } from "./sign-in-limiter";
import { SIGN_IN_LIMITED_ERROR } from "./sign-in-errors";

/** A credentials sign-in as counted: authorize checks exactly these values and forgives exactly this attempt. */
export type CountedSignIn = SignInForm & { attempt: SignInAttempt };

type NextAuthContext = { params: Promise<{ nextauth?: string[] }> };
type RouteHandler<C> = (request: Request, context: C) => Promise<Response>;
type CountingHandler<C> = (request: Request, context: C, signIn?: CountedSignIn) => Promise<Response>;

/**
 * Wraps next-auth's route: each credentials sign-in is read once and counted before the password is checked
 * (authorize gives a right one back); a repeated field is a 400; over the limit it is a 429 with Retry-After,
 * whose `url` carries the error the way next-auth's signIn() reads it.
 */
export const limitDashboardSignIn =
  <C extends NextAuthContext>(getApp: () => Promise<App>, handler: CountingHandler<C>): RouteHandler<C> =>
  async (request, context) => {
    // Decided as next-auth decides which action and provider run (its first two path segments, whatever follows).
    const [action, provider] = (await context.params).nextauth ?? [];
    if (request.method !== "POST" || action !== "callback" || provider !== "credentials") return handler(request, context);
    const app = await getApp();
    let form: SignInForm;
    try {
      form = await readSignInForm(request);
    } catch (err) {
      return toWebResponse(errorResponse(err));
    }
    const attempt: SignInAttempt = { realm: "dashboard", login: form.email, address: clientAddressFromHeaders((name) => request.headers.get(name), app.config.trustProxy) };
    const wait = await app.signInLimiter.count(attempt);
    if (!wait) return handler(request, context, { ...form, attempt });
    const out = errorResponse(signInLimited(wait));
    const body = { ...(JSON.parse(out.body!) as object), url: new URL(`/login?error=${SIGN_IN_LIMITED_ERROR}`, request.url).toString() };
    return toWebResponse({ ...out, body: JSON.stringify(body) });
  };
