import type { CoreRequest } from "./core-types";

/** The credential a request carries: `x-api-key`, else `Authorization: Bearer …`. */
export const readCredential = (req: CoreRequest): string | undefined => {
  const apiKey = req.header("x-api-key");
  if (apiKey) return apiKey.trim();
  const auth = req.header("authorization");
  if (!auth) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match?.[1];
};
