// Sign-in errors the dashboard's login form tells apart (next-auth passes a thrown error's message as `error`).

/** The password is right but the operator disabled the account. */
export const ACCOUNT_DISABLED_ERROR = "AccountDisabled";

/** Too many failed sign-ins for this email or from this address (a 429 with Retry-After). */
export const SIGN_IN_LIMITED_ERROR = "RateLimited";
