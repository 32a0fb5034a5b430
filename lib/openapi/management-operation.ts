// One OpenAPI operation from one management route: schemas from its zod schemas, errors from its shape.
import { z } from "zod";
import { PERMISSION_SUMMARY } from "../mgmt/permissions";
import type { Route } from "../mgmt/route";
import { COMPONENTS } from "../mgmt/schemas/common";
import { curlSample } from "./curl-sample";
import { errorRefs, routeErrors } from "./management-errors";

type Json = Record<string, unknown>;

const PATH_PARAMETERS: Record<string, { component: string; description: string; schema: Json; sample: string }> = {
  instance: { component: "Instance", description: "The database's instance, e.g. `shop_7k2m9x`.", schema: { type: "string" }, sample: "shop_7k2m9x" },
  table: { component: "Table", description: "The table's name.", schema: { type: "string" }, sample: "products" },
  column: { component: "Column", description: "The column's name.", schema: { type: "string" }, sample: "price" },
  index: { component: "IndexName", description: "The name of one of the table's indexes over several columns.", schema: { type: "string" }, sample: "category_price" },
  join: { component: "Join", description: "The join's name.", schema: { type: "string" }, sample: "books_with_authors" },
  view: { component: "ViewId", description: "The saved view's id.", schema: { type: "integer" }, sample: "3" },
  id: { component: "KeyId", description: "The key's id.", schema: { type: "integer" }, sample: "7" },
  build: { component: "AiBuildId", description: "The AI build's id.", schema: { type: "integer" }, sample: "12" },
  invite: { component: "InviteId", description: "The invite's id.", schema: { type: "integer" }, sample: "4" },
  webhook: { component: "WebhookId", description: "The webhook's id.", schema: { type: "integer" }, sample: "3" },
  delivery: { component: "WebhookDeliveryId", description: "A webhook delivery's id.", schema: { type: "integer" }, sample: "41" },
  account: { component: "AccountId", description: "The account's id.", schema: { type: "integer" }, sample: "2" },
  plan: { component: "PlanName", description: "The plan's name: 1 to 32 lowercase letters, digits, - or _.", schema: { type: "string", pattern: "^[a-z][a-z0-9_-]{0,31}$" }, sample: "pro" },
};

const pathParamNames = (route: Route) => route.path.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1));

/** `databases/:instance` → `/databases/{instance}` */
export const openApiPath = (route: Route) => `/${route.path.replace(/:(\w+)/g, "{$1}")}`;

export const pathParameterRefs = (route: Route) =>
  pathParamNames(route).map((name) => {
    const param = PATH_PARAMETERS[name];
    if (!param) throw new Error(`route ${route.operationId}: path parameter "${name}" has no description`);
    return { $ref: `#/components/parameters/${param.component}` };
  });

export const PARAMETER_COMPONENTS = Object.fromEntries(
  Object.entries(PATH_PARAMETERS).map(([name, p]) => [p.component, { name, in: "path", required: true, description: p.description, schema: p.schema }]),
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
  const url = serverUrl + openApiPath(route).replace(/\{(\w+)\}/g, (_m, p: string) => PATH_PARAMETERS[p]?.sample ?? p);
  const example = route.body ? exampleOf(route.body) : undefined;
  const success = route.response
    ? { description: route.summary, content: { "application/json": { schema: schemaRef(route.response, route.operationId) } } }
    : { description: "Done; no content." };
  return {
    tags: [route.tag],
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\nPermission \`${route.permission}\`: ${PERMISSION_SUMMARY[route.permission]}.`,
    ...(route.query ? { parameters: queryParameters(route.query) } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { "application/json": { schema: schemaRef(route.body, route.operationId), ...(example === undefined ? {} : { example }) } } } }
      : {}),
    responses: { [String(route.status)]: success, ...errorRefs(routeErrors(route)) },
    "x-codeSamples": curlSample(route.method, url, { body: example }),
  };
};
