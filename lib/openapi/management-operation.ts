// One OpenAPI operation from one management route: schemas from its zod schemas, errors from its shape.
import { z } from "zod";
import { PERMISSION_SUMMARY } from "../teams/permissions";
import type { Route } from "../mgmt/route";
import { pathParamNames } from "../contract/parse-input";
import { COMPONENTS } from "../contract/schemas/common";
import { isPathParamName, PATH_PARAMS, type PathParamName } from "../contract/schemas/path-params";
import { curlSample } from "./curl-sample";
import { errorRefs, routeErrors } from "./management-errors";

type Json = Record<string, unknown>;

/** A path parameter's OpenAPI schema: what its zod schema gives the service (an id is an integer, a name a pattern). */
const paramSchema = (name: PathParamName): Json => {
  const { $schema: _s, description: _d, ...schema } = z.toJSONSchema(PATH_PARAMS[name].schema, { target: "draft-2020-12", io: "output" }) as Json;
  return schema;
};

const described = (route: Route, name: string): PathParamName => {
  if (!isPathParamName(name)) throw new Error(`route ${route.operationId}: path parameter "${name}" has no schema`);
  return name;
};

/** `databases/:instance` → `/databases/{instance}` */
export const openApiPath = (route: Route) => `/${route.path.replace(/:(\w+)/g, "{$1}")}`;

export const pathParameterRefs = (route: Route) =>
  pathParamNames(route).map((name) => ({ $ref: `#/components/parameters/${PATH_PARAMS[described(route, name)].component}` }));

export const PARAMETER_COMPONENTS = Object.fromEntries(
  (Object.keys(PATH_PARAMS) as PathParamName[]).map((name) => {
    const { component, schema } = PATH_PARAMS[name];
    return [component, { name, in: "path", required: true, description: schema.meta()?.description, schema: paramSchema(name) }];
  }),
);

/** A $ref to a registered schema, or an array of one; anything else is a route to fix. */
const schemaRef = (schema: z.ZodType, where: string): Json => {
  const id = COMPONENTS.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  if (schema instanceof z.ZodArray) return { type: "array", items: schemaRef(schema.element as z.ZodType, where) };
  throw new Error(`${where}: schema is not a registered component`);
};

const exampleOf = (schema: z.ZodType) => schema.meta()?.example;

const queryParameters = (query: z.ZodObject) =>
  Object.entries(query.shape).map(([name, field]) => {
    const { description, ...schema } = z.toJSONSchema(field as z.ZodType, { target: "draft-2020-12", io: "input" }) as Json;
    delete schema.$schema;
    return { name, in: "query", required: !(field as z.ZodType).safeParse(undefined).success, description, schema };
  });

export const managementOperation = (route: Route, serverUrl: string): Json => {
  const url = serverUrl + openApiPath(route).replace(/\{(\w+)\}/g, (_m, p: string) => (isPathParamName(p) ? PATH_PARAMS[p].sample : p));
  const example = route.body ? exampleOf(route.body) : undefined;
  const success = route.binary === "response"
    ? { description: route.summary, content: { "application/gzip": { schema: { type: "string", contentMediaType: "application/gzip" } } } }
    : route.response
    ? { description: route.summary, content: { "application/json": { schema: schemaRef(route.response, route.operationId) } } }
    : { description: "Done; no content." };
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\nPermission \`${route.permission}\`: ${PERMISSION_SUMMARY[route.permission]}.`,
    ...(route.query ? { parameters: queryParameters(route.query) } : {}),
    ...(route.binary === "body"
      ? { requestBody: { required: true, content: { "application/gzip": { schema: { type: "string", contentMediaType: "application/gzip", description: "A backup archive (docs/backups.md)." } } } } }
      : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { "application/json": { schema: schemaRef(route.body, route.operationId), ...(example === undefined ? {} : { example }) } } } }
      : {}),
    responses: { [String(route.status)]: success, ...errorRefs(routeErrors(route)) },
    "x-codeSamples": curlSample(route.method, url, { body: example }),
  };
};
