import type { AiBuild, AiPlanView, AiStep, ColumnInput } from "../api/types";

/** The plan with the types it is made of (see AiPlanView); an empty plan for a build that has none. */
export const planOf = (build: AiBuild): AiPlanView => (build.plan ?? { name: "", tables: [], joins: [], seed: {} }) as AiPlanView;

/** `varchar(120)`, `decimal(10,2)`, `dropdown`, `reference`: the type with its size. */
export const typeText = (c: ColumnInput) =>
  c.type === "varchar" && c.length ? `varchar(${c.length})` : c.type === "decimal" && c.precision ? `decimal(${c.precision},${c.scale ?? 0})` : c.type;

/** A seed or default value as one short line. */
export const valueText = (value: unknown) =>
  value === null || value === undefined ? "null" : typeof value === "object" ? JSON.stringify(value) : String(value);

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** What one tool call was about, in a few words: `customers (4 columns)`, `orders.status dropdown`, … */
export const stepText = ({ tool, input }: AiStep) => {
  if (!isRecord(input)) return "";
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const count = (v: unknown, word: string) => (Array.isArray(v) ? ` (${plural(v.length, word)})` : "");
  switch (tool) {
    case "set_database_name":
      return `“${str(input.name)}”`;
    case "add_table":
      return `${str(input.name)}${count(input.columns, "column")}`;
    case "add_column":
      return isRecord(input.column) ? `${str(input.table)}.${str(input.column.name)} ${str(input.column.type)}` : str(input.table);
    case "add_join":
      return `${str(input.name)}: ${[str(input.base), ...(Array.isArray(input.joins) ? input.joins.map((j) => (isRecord(j) ? str(j.table) : "")) : [])].join(" ⋈ ")}`;
    case "add_seed_rows":
      return `${str(input.table)}${count(input.rows, "row")}`;
    case "finish":
      return str(input.summary);
    default:
      return str(input.name);
  }
};

export const formatWhen = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
