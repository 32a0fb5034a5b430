import type { RateDecision } from "./request-limiter";

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers): the policy (quota `q` per window
 * `w` seconds) and the state (`r` requests remaining, `t` seconds until the window resets).
 */
export const rateLimitHeaders = (d: RateDecision): Record<string, string> => ({
  "RateLimit-Policy": `"plan";q=${d.limit};w=1`,
  RateLimit: `"plan";r=${d.remaining};t=${d.reset}`,
});
