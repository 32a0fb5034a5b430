import type { z } from "zod";
import { validationFailed } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import { toFieldErrors } from "./field-errors";
import type { Route } from "./route";

/** The value as the schema parses it, or a 422 listing every problem. */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown, prefix: string[] = []): z.output<S> => {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationFailed(toFieldErrors(result.error.issues, prefix));
  return result.data;
};

/** The route's input: path params, plus the body and query checked against its schemas (422 listing every problem). */
export const parseInput = (route: Route, params: Record<string, string>, req: CoreRequest): Record<string, unknown> => {
  const input: Record<string, unknown> = { ...params };
  if (route.query) input.query = parseWith(route.query, Object.fromEntries(req.query));
  if (route.body) input.body = parseWith(route.body, parseJsonBody(req));
  return input;
};
