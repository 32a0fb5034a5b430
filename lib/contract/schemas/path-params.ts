// The management API's path parameters: one zod schema per `:name`, parsed with a route's body and query
// before it authorizes, and published as the OpenAPI document's parameter components. Services get the output.
import { z } from "zod";
import { PLAN_NAME_RE } from "../../plans/default-plans";
import { INSTANCE_RE, NAME_RE } from "../../schema/names";
import { idText, INSTANCE_EXAMPLE, rule } from "./common";

/**
 * `not_found`: the segment names something that exists or not (a malformed one cannot exist: 404).
 * `validation_failed`: the segment names what the request creates (a malformed one is bad input: 422).
 */
export type PathRefusal = "not_found" | "validation_failed";

type PathParam<S extends z.ZodType> = { schema: S; component: string; sample: string; refusal: PathRefusal };

const param = <S extends z.ZodType>(component: string, sample: string, schema: S, refusal: PathRefusal = "not_found"): PathParam<S> => ({
  schema,
  component,
  sample,
  refusal,
});

/** A row id: the service gets a number. */
const rowId = (name: string, description: string) => idText("invalid_id", `${name} must be an id: a whole number from 1`).meta({ description });

const named = (name: string, re: RegExp, rules: string, description: string, code = "invalid_name") =>
  z
    .string()
    .check(rule((v: string) => (re.test(v) ? undefined : { code, message: `${name} must be ${rules}` })))
    .meta({ description, pattern: re.source });

const NAME_RULES = "a name: a lowercase letter, then a-z, 0-9 or _ (at most 63 characters)";

export const PATH_PARAMS = {
  instance: param(
    "Instance",
    INSTANCE_EXAMPLE,
    named("instance", INSTANCE_RE, "a database's instance name: a lowercase letter, then 2 to 62 of a-z, 0-9 or _", `The database's instance, e.g. \`${INSTANCE_EXAMPLE}\`.`),
  ),
  table: param("Table", "products", named("table", NAME_RE, NAME_RULES, "The table's name.")),
  column: param("Column", "price", named("column", NAME_RE, NAME_RULES, "The column's name.")),
  index: param("IndexName", "category_price", named("index", NAME_RE, NAME_RULES, "The name of one of the table's indexes over several columns.")),
  join: param("Join", "books_with_authors", named("join", NAME_RE, NAME_RULES, "The join's name.")),
  view: param("ViewId", "3", rowId("view", "The saved view's id.")),
  id: param("KeyId", "7", rowId("id", "The key's id.")),
  build: param("AiBuildId", "12", rowId("build", "The AI build's id.")),
  invite: param("InviteId", "4", rowId("invite", "The invite's id.")),
  webhook: param("WebhookId", "3", rowId("webhook", "The webhook's id.")),
  delivery: param("WebhookDeliveryId", "41", rowId("delivery", "A webhook delivery's id.")),
  backup: param("BackupId", "3", rowId("backup", "The backup's id.")),
  user: param("AuthUserId", "1", rowId("user", "The id of a user in the database's users table.")),
  account: param("AccountId", "2", rowId("account", "The account's id.")),
  // PUT creates the plan it names: a malformed name is bad input, not a missing plan.
  plan: param(
    "PlanName",
    "pro",
    named("plan", PLAN_NAME_RE, "1 to 32 lowercase letters, digits, - or _, starting with a letter", "The plan's name: 1 to 32 lowercase letters, digits, - or _."),
    "validation_failed",
  ),
};

export type PathParamName = keyof typeof PATH_PARAMS;

/** What a service receives for the path parameter `name`. */
export type PathParamValue<N extends string> = N extends PathParamName ? z.output<(typeof PATH_PARAMS)[N]["schema"]> : never;

export const isPathParamName = (name: string): name is PathParamName => Object.hasOwn(PATH_PARAMS, name);
