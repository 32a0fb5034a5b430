import { ApiError, invalidField } from "../errors";
import type { CoreRequest } from "./core-types";

/** The JSON body of a write, or a 413/422 that says what is wrong with it. */
export const parseJsonBody = (req: CoreRequest): unknown => {
  if (req.bodyTooLarge) throw new ApiError("payload_too_large", "The body is larger than 1 MiB.");
  if (req.body === undefined || req.body.trim() === "") throw invalidField("body", "required", "a JSON body is required");
  try {
    return JSON.parse(req.body);
  } catch (err) {
    throw invalidField("body", "invalid_json", `the body is not valid JSON (${(err as Error).message})`);
  }
};
