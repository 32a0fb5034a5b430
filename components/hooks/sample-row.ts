import type { Column } from "../api/types";

const SAMPLES: Partial<Record<Column["type"], (c: Column) => unknown>> = {
  varchar: (c) => `sample ${c.name}`,
  text: (c) => `sample ${c.name}`,
  int: () => 2,
  bigint: () => 2,
  decimal: () => 9.5,
  float: () => 1.5,
  boolean: () => true,
  date: () => "2026-01-01",
  datetime: () => "2026-01-01T12:00:00Z",
  json: () => ({}),
  dropdown: (c) => c.options?.[0] ?? "",
  reference: () => 1,
};

/** A plausible row for the table's columns, to try hooks on (passwords left out: they are never shown). */
export const sampleRow = (columns: Column[]): Record<string, unknown> =>
  Object.fromEntries(columns.flatMap((c) => (SAMPLES[c.type] ? [[c.name, SAMPLES[c.type]!(c)]] : [])));
