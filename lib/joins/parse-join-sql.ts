// SQL mode: one `SELECT t.col [AS name], … FROM a [AS x] [INNER|LEFT [OUTER]] JOIN b ON x.k = b.k [AND …] …` becomes the
// structured definition. Everything else is refused with a 422 on field "sql" giving line and column.
import { ApiError, invalidField } from "../errors";
import type { DatabaseSchema } from "../schema/types";
import { recordColumns } from "../schema/types";

export const MAX_JOIN_SQL = 10_000;

type Loc = { start: { offset: number; line: number; column: number } };
type Node = Record<string, any> & { loc?: Loc };
type Raw = Record<string, unknown>;

type SqlParser = { astify: (sql: string, opt: object) => unknown };
let parser: Promise<SqlParser> | undefined;

/** The MySQL grammar is a large module: loaded on the first join written as SQL, not at start. */
const loadParser = () =>
  (parser ??= import("node-sql-parser/build/mysql.js").then((m) => {
    const { Parser } = (m.default ?? m) as unknown as { Parser: new () => SqlParser };
    return new Parser();
  }));

const position = (text: string, offset: number) => {
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
};

class SqlRefusal extends Error {
  constructor(readonly offset: number, readonly code: string, message: string) {
    super(message);
  }
}
const refuse = (offset: number | Loc | undefined, code: string, message: string): never => {
  throw new SqlRefusal(typeof offset === "number" ? offset : (offset?.start.offset ?? 0), code, message);
};

/** Offsets of the text outside quoted strings and identifiers: comments and `;` are found there. */
const scanOutsideQuotes = (text: string, visit: (i: number) => void) => {
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote !== "`") i++;
      else if (c === quote) quote = text[i + 1] === quote ? (i++, quote) : "";
      continue;
    }
    if (c === "'" || c === '"' || c === "`") quote = c;
    else visit(i);
  }
};

/** Comments can hide text from a reader (and `/*! … *\/` runs on MySQL); several statements are never one join. */
const prescan = (text: string) => {
  scanOutsideQuotes(text, (i) => {
    const two = text.slice(i, i + 2);
    if (two === "/*" || two === "--" || text[i] === "#") refuse(i, "sql_comment", "comments are not allowed in a join's SQL");
    if (text[i] === ";" && text.slice(i + 1).trim() !== "") refuse(i, "sql_multiple_statements", "only one SELECT statement is allowed");
  });
};

/** Where a word (or `*`, `@@x`) first appears outside quotes, skipping `skip` earlier ones (for AST parts without a location). */
const findWord = (text: string, word: string, skip = 0) => {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const re = new RegExp(`^${escaped}${/\w$/.test(word) ? "(?!\\w)" : ""}`, "i");
  let found: number | undefined;
  let seen = 0;
  scanOutsideQuotes(text, (i) => {
    if (found !== undefined || !re.test(text.slice(i, i + word.length + 1)) || (/^\w/.test(word) && /\w/.test(text[i - 1] ?? ""))) return;
    if (seen++ === skip) found = i;
  });
  return found;
};

/** Where a quoted literal starts (literals carry no location). */
const findQuoted = (text: string, value: string) => {
  for (const q of ["'", '"']) {
    const at = text.indexOf(`${q}${value}${q}`);
    if (at >= 0) return at;
  }
  return undefined;
};

/** Identifiers come as strings, or as `{type: "backticks_quote_string", value}` when quoted. */
const ident = (x: unknown): string | undefined =>
  typeof x === "string" ? x : x && typeof x === "object" ? ident((x as Raw).value ?? (x as { expr?: unknown }).expr) : undefined;

const describeExpr = (expr: Node, text: string): never => {
  if (expr.type === "function" || expr.type === "aggr_func") {
    const name = expr.name?.name?.map((n: { value: string }) => n.value).join(".") ?? expr.name;
    return refuse(expr.loc ?? findWord(text, String(name)), "sql_function", `function ${String(name).toUpperCase()}() is not allowed; list table columns only`);
  }
  if (expr.type === "var") return refuse(findWord(text, `${expr.prefix ?? "@"}${expr.name}`) ?? findWord(text, "@"), "sql_variable", `variables (${expr.prefix ?? "@"}${expr.name}) are not allowed`);
  if (expr.ast || expr.type === "select") return refuse(expr.loc ?? findWord(text, "select", 1), "sql_subquery", "subqueries are not allowed");
  const literal = typeof expr.value === "string" ? findQuoted(text, expr.value) : undefined;
  return refuse(expr.loc ?? literal, "sql_expression", `only table columns written as table.column are allowed here (found ${expr.type ?? "an expression"})`);
};

const columnName = (ref: Node) => ident(ref.column) ?? "";

type Scope = Map<string, string>; // alias or table name → table name

const readColumnRef = (expr: Node, scope: Scope, schema: DatabaseSchema, text: string) => {
  if (expr.type !== "column_ref") return describeExpr(expr, text);
  const column = columnName(expr);
  if (column === "*") return refuse(expr.loc ?? findWord(text, "*"), "sql_star", "list the columns explicitly (no *)");
  const qualifier = ident(expr.table);
  if (!qualifier) return refuse(expr.loc, "sql_unqualified", `write "${column}" as table.column`);
  const table = scope.get(qualifier);
  if (!table) return refuse(expr.loc, "unknown_table", `"${qualifier}" is not a table or alias of this query`);
  if (!recordColumns(schema.tables.get(table)!).some((c) => c.name === column)) {
    return refuse(expr.loc, "unknown_column", `table "${table}" has no column "${column}"`);
  }
  return `${table}.${column}`;
};

/** The AND-ed equalities of an ON clause as key pairs. */
const readOn = (on: Node, scope: Scope, schema: DatabaseSchema, text: string): [string, string][] => {
  if (on.type === "binary_expr" && on.operator === "AND") return [...readOn(on.left, scope, schema, text), ...readOn(on.right, scope, schema, text)];
  if (on.type !== "binary_expr" || on.operator !== "=") {
    if (on.type === "binary_expr") return refuse(on.loc, "sql_join_condition", `ON may only AND together equalities of two columns (found ${on.operator})`);
    return describeExpr(on, text);
  }
  return [[readColumnRef(on.left, scope, schema, text), readColumnRef(on.right, scope, schema, text)]];
};

const CLAUSES: [string, string, string][] = [
  ["where", "WHERE", "filters come from query parameters (?column=value)"],
  ["groupby", "GROUP BY", "grouping is not supported"],
  ["having", "HAVING", "grouping is not supported"],
  ["orderby", "ORDER BY", "sorting comes from the _sort query parameter"],
  ["limit", "LIMIT", "paging comes from the _limit and _offset query parameters"],
  ["window", "WINDOW", "window clauses are not supported"],
  ["locking_read", "FOR", "locking reads are not supported"],
];

const readSelect = (ast: Node, schema: DatabaseSchema, text: string): Raw => {
  if (ast.type !== "select") return refuse(findWord(text, String(ast.type)) ?? 0, "sql_not_select", `only a SELECT is allowed (found ${String(ast.type).toUpperCase()})`);
  if (ast.with) return refuse(findWord(text, "with"), "sql_cte", "WITH (common table expressions) is not allowed");
  if (ast._next || ast.set_op) return refuse(ast._next?.loc ?? findWord(text, String(ast.set_op ?? "union")), "sql_union", `${String(ast.set_op ?? "union").toUpperCase()} is not allowed; a join is one SELECT`);
  if (ast.into?.position) return refuse(findWord(text, "into"), "sql_into", "SELECT … INTO is not allowed");
  if (ast.distinct) return refuse(findWord(text, "distinct"), "sql_distinct", "DISTINCT is not supported");
  if (ast.options?.length) return refuse(findWord(text, String(ast.options[0])), "sql_option", `${String(ast.options[0]).toUpperCase()} is not allowed`);
  for (const [key, word, why] of CLAUSES) {
    const part = ast[key];
    if (part && !(Array.isArray(part) && part.length === 0) && !(key === "limit" && !part.value?.length)) {
      return refuse(part.loc ?? findWord(text, word.split(" ")[0]), "sql_clause", `${word} is not allowed: ${why}`);
    }
  }
  const from: Node[] = Array.isArray(ast.from) ? ast.from : [];
  if (from.length < 2) return refuse(ast.loc ? findWord(text, "from") ?? 0 : 0, "sql_no_join", "a join needs FROM a table and at least one INNER JOIN or LEFT JOIN … ON");
  const scope: Scope = new Map();
  const joins: Raw[] = [];
  from.forEach((raw, i) => {
    if (raw.expr || raw.type === "expr") return refuse(raw.loc ?? findWord(text, "select", 1), "sql_subquery", "subqueries are not allowed in FROM");
    const item: Node = { ...raw, db: ident(raw.db), table: ident(raw.table) ?? "", as: ident(raw.as) };
    if (item.db) return refuse(item.loc, "sql_other_database", `"${item.db}.${item.table}": only tables of this database are allowed (no database prefix)`);
    if (!schema.tables.has(item.table)) return refuse(item.loc, "unknown_table", `"${item.table}" is not a table of this database`);
    for (const name of new Set([item.table, item.as ?? item.table])) {
      if (scope.has(name)) return refuse(item.loc, "sql_duplicate_table", `"${name}" appears twice; each table may appear once`);
    }
    if ([...scope.values()].includes(item.table)) return refuse(item.loc, "sql_duplicate_table", `table "${item.table}" appears twice; each table may appear once`);
    scope.set(item.as ?? item.table, item.table);
    if (item.as && item.as !== item.table) scope.set(item.table, item.table);
    if (i === 0) return;
    if (!item.join) return refuse(item.loc, "sql_join_type", "join tables with INNER JOIN … ON, not a comma");
    const left = item.join === "LEFT JOIN" || item.join === "LEFT OUTER JOIN";
    if (!left && item.join !== "INNER JOIN" && item.join !== "JOIN") return refuse(item.loc, "sql_join_type", `${item.join} is not supported; use INNER JOIN or LEFT JOIN`);
    if (item.using) return refuse(item.loc, "sql_join_condition", "USING is not supported; write ON a.x = b.y");
    if (!item.on) return refuse(item.loc, "sql_join_condition", `JOIN ${item.table} needs ON a.x = b.y`);
    joins.push({ table: item.table, on: readOn(item.on, scope, schema, text), ...(left ? { type: "left" } : {}) });
  });
  const columns = (Array.isArray(ast.columns) ? ast.columns : [{ expr: { type: "column_ref", column: "*" } }]).map((c: Node) => {
    const column = readColumnRef(c.expr, scope, schema, text);
    const as = ident(c.as);
    return as ? { column, as } : { column };
  });
  return { base: ident(from[0].table), joins, columns };
};

/** The structured form of a join's SQL (without its name); a refusal is a 422 on "sql" naming the position. */
export const parseJoinSql = async (text: unknown, schema: DatabaseSchema): Promise<Raw> => {
  if (typeof text !== "string" || text.trim() === "") throw invalidField("sql", "invalid_type", "sql must be a SELECT … JOIN … statement");
  if (text.length > MAX_JOIN_SQL) throw invalidField("sql", "too_long", `sql is longer than ${MAX_JOIN_SQL} characters`);
  const sqlParser = await loadParser();
  try {
    prescan(text);
    let ast: unknown;
    try {
      ast = sqlParser.astify(text, { database: "MySQL", parseOptions: { includeLocations: true } });
    } catch (err) {
      const e = err as { location?: Loc; found?: string | null };
      if (!e.location) return refuse(0, "sql_syntax", "the SQL could not be parsed");
      const found = e.found === null || e.found === undefined ? "the end of the text" : JSON.stringify(e.found);
      return refuse(e.location, "sql_syntax", `syntax error: unexpected ${found}`);
    }
    const statements = (Array.isArray(ast) ? ast : [ast]) as Node[];
    if (statements.length !== 1) return refuse(findWord(text, String(statements[1]?.type ?? "")) ?? 0, "sql_multiple_statements", "only one SELECT statement is allowed");
    return readSelect(statements[0], schema, text);
  } catch (err) {
    if (!(err instanceof SqlRefusal)) throw err instanceof ApiError ? err : invalidField("sql", "sql_syntax", "the SQL could not be read");
    throw invalidField("sql", err.code, `${err.message} (at ${position(text, err.offset)})`);
  }
};
