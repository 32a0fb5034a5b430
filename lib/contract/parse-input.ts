import { z } from "zod";
import { ApiError, validationFailed } from "../errors";
import type { CoreRequest } from "../http/core-types";
import { parseJsonBody } from "../http/parse-json-body";
import { toFieldErrors } from "./field-errors";
import type { Route } from "../mgmt/route";
import { isPathParamName, PATH_PARAMS } from "./schemas/path-params";

/** The value as the schema parses it, or a 422 listing every problem. */
export const parseWith = <S extends z.ZodType>(schema: S, value: unknown, prefix: string[] = []): z.output<S> => {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationFailed(toFieldErrors(result.error.issues, prefix));
  return result.data;
};

export const pathParamNames = (route: Pick<Route, "path">) => route.path.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1));

const pathSchemas = new WeakMap<Route, z.ZodObject>();

/** The zod object of a route's path parameters, built once from lib/contract/schemas/path-params.ts. */
export const pathSchema = (route: Route): z.ZodObject => {
  let schema = pathSchemas.get(route);
  if (schema) return schema;
  const shape = Object.fromEntries(
    pathParamNames(route).map((name) => {
      if (!isPathParamName(name)) throw new Error(`route ${route.operationId}: path parameter "${name}" has no schema`);
      return [name, PATH_PARAMS[name].schema];
    }),
  );
  schema = z.object(shape);
  pathSchemas.set(route, schema);
  return schema;
};

/** A segment that names nothing that could exist is a 404; one naming what the request creates is a 422. Both name it. */
const parsePath = (route: Route, params: Record<string, string>): Record<string, unknown> => {
  const result = pathSchema(route).safeParse(params, { reportInput: true });
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error.issues);
  const creates = errors.every((e) => isPathParamName(e.field) && PATH_PARAMS[e.field].refusal === "validation_failed");
  if (creates) throw validationFailed(errors);
  throw new ApiError("not_found", `No such ${errors[0].field}: ${errors[0].message}.`, { errors });
};

/** The route's input: path params, query and body, each checked against the route's schemas before it authorizes. */
export const parseInput = (route: Route, params: Record<string, string>, req: CoreRequest): Record<string, unknown> => {
  const input = parsePath(route, params);
  if (route.query) input.query = parseWith(route.query, Object.fromEntries(req.query));
  if (route.body) input.body = parseWith(route.body, parseJsonBody(req));
  return input;
};
