// Where an OAuth sign-in may send the user back to: only the database's configured redirect URLs, so a
// crafted link cannot hand a sign-in code to another site.
import { invalidField } from "../../errors";

/** The URL without its query string, normalised (scheme and host lower-case, default port dropped). */
const base = (text: string) => {
  try {
    const url = new URL(text);
    if (url.username || url.password || url.hash || (url.protocol !== "https:" && url.protocol !== "http:")) return undefined;
    return `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
};

/**
 * `redirect_to` if it names one of `allowed` (equal up to its own query string, which is kept), else a 422 on
 * `redirect_to`. Checked before anything is stored or any provider is asked.
 */
export const allowedRedirect = (redirectTo: string | null, allowed: string[]) => {
  if (!redirectTo) throw invalidField("redirect_to", "required", '"redirect_to" is required: one of the redirect URLs in this database\'s auth settings');
  const wanted = base(redirectTo);
  if (!wanted || !allowed.some((url) => base(url) === wanted)) {
    throw invalidField("redirect_to", "not_allowed", '"redirect_to" is not one of the redirect URLs in this database\'s auth settings');
  }
  return redirectTo;
};

/** `url` with `name=value` added to its query string. */
export const withParam = (url: string, params: Record<string, string>) => {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return target.href;
};
