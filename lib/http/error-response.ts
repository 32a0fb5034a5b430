import { toErrorResponse } from "../errors";
import { type CoreResponse, json } from "./core-types";

export const errorResponse = (err: unknown, requestId?: string): CoreResponse => {
  const { status, body, headers } = toErrorResponse(err, requestId);
  return json(status, body, headers);
};
