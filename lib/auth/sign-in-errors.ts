// Sign-in errors the dashboard's login form tells apart (next-auth passes a thrown error's message as `error`).

/** The password is right but the operator disabled the account. */
export const ACCOUNT_DISABLED_ERROR = "AccountDisabled";
