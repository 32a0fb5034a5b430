import { z } from "zod";
import { component } from "./common";

const VIEW_NAME_MAX = 100;
const VIEW_QUERY_MAX = 2000;

const viewProperties = {
  name: z.string().trim().min(1).max(VIEW_NAME_MAX).meta({ description: "Shown in the grid's view menu; need not be unique." }),
  query: z.string().max(VIEW_QUERY_MAX).meta({ description: "The data API query string: filters, `_sort`, `_limit` (checked against the table like a GET)." }),
  hidden_columns: z.array(z.string()).max(300).meta({ description: "Columns of the table the grid hides." }),
  shared: z.boolean().meta({ description: "Seen by every member of the workspace (needs an editor, admin or the owner); false: only by its creator." }),
};

export const ViewInput = component(
  "ViewInput",
  z
    .strictObject({
      name: viewProperties.name,
      query: viewProperties.query.optional().meta({ default: "" }),
      hidden_columns: viewProperties.hidden_columns.optional().meta({ default: [] }),
      shared: viewProperties.shared.optional().meta({ default: false }),
    })
    .meta({ example: { name: "Cheap books first", query: "price_lt=10&_sort=price", hidden_columns: ["notes"], shared: true } }),
);

export const ViewPatch = component(
  "ViewPatch",
  z
    .strictObject({ name: viewProperties.name.optional(), query: viewProperties.query.optional(), hidden_columns: viewProperties.hidden_columns.optional(), shared: viewProperties.shared.optional() })
    .meta({ description: "Only the properties to change.", example: { shared: false } }),
);

export const SavedView = component(
  "SavedView",
  z
    .object({
      id: z.int(),
      name: z.string(),
      query: z.string(),
      hidden_columns: z.array(z.string()),
      shared: z.boolean(),
      created_by: z.int().meta({ description: "The creator's account id." }),
      mine: z.boolean().meta({ description: "Whether the caller created it." }),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .meta({ example: { id: 1, name: "Cheap books first", query: "price_lt=10&_sort=price", hidden_columns: ["notes"], shared: true, created_by: 1, mine: true, created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" } }),
);

export type ViewInput = z.output<typeof ViewInput>;
export type ViewPatch = z.output<typeof ViewPatch>;
export type SavedView = z.output<typeof SavedView>;
