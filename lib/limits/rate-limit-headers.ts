import type { RateDecision } from "./request-limiter";

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy (quota `q` per window
 * `w` seconds) and the state (`r` requests remaining, `t` seconds until the window resets).
 */
export const addRateLimitHeaders = (headers: Record<string, string>, d: RateDecision) => {
  headers["RateLimit-Policy"] = policyOf(d.limit);
  headers.RateLimit = `"plan";r=${d.remaining};t=${d.reset}`;
};

const policies = new Map<number, string>();

/** The policy text of a rate, made once per rate (it is sent on every answer). */
const policyOf = (limit: number) => {
  let text = policies.get(limit);
  if (text === undefined) policies.set(limit, (text = `"plan";q=${limit};w=1`));
  return text;
};
