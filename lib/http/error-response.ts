import { toErrorResponse } from "../errors";
import { type CoreResponse, json } from "./core-types";

export const errorResponse = (err: unknown): CoreResponse => {
  const { status, body, headers } = toErrorResponse(err);
  return json(status, body, headers);
};
