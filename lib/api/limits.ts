// Every limit the data API enforces, exported from one place. Each is defined beside the check that enforces it;
// the OpenAPI builder (lib/openapi) publishes these constants, never a copy of their values.
export { DEFAULT_LIMIT, MAX_LIMIT } from "./parse-query";
export { MAX_EXPAND } from "./parse-projection";
export { MAX_AGGREGATES, MAX_GROUP } from "./parse-aggregate";
export { MAX_BULK_ROWS } from "./write/run-write";
export { MAX_FILTER_ROWS } from "./write/change-by-filter";
export { MAX_OR_FILTERS, MAX_OR_GROUPS } from "../schema/filter-operators";
export { MAX_BODY_BYTES } from "../http/core-types";

/** A byte limit as the documents word it (`1 MiB`). */
export const mebibytes = (bytes: number) => `${bytes / 1_048_576} MiB`;
