// Seeded policies and rows over one table with a column of every comparable type, for the tests that hold the
// SQL list and the feed's matcher to one meaning. Values sit on the edges where engines part: case, trailing
// spaces, UTF-8 vs UTF-16 order, instants written in several forms, decimals, NULLs, absent claims.

/** mulberry32: small, fast, the same sequence everywhere. */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
export type Rng = () => number;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];

export const THINGS_COLUMNS = [
  { name: "n", type: "int" },
  { name: "big", type: "bigint" },
  { name: "price", type: "decimal", precision: 10, scale: 2 },
  { name: "ratio", type: "float" },
  { name: "title", type: "varchar", length: 50 },
  { name: "body", type: "text" },
  { name: "flag", type: "boolean" },
  { name: "publish_at", type: "datetime" },
  { name: "day", type: "date" },
  { name: "kind", type: "dropdown", options: ["a", "B", "ab"] },
  { name: "owner_id", type: "bigint" },
  { name: "data", type: "json" },
] as const;

type Kind = "number" | "text" | "datetime" | "date" | "bool" | "json";
const KIND: Record<string, Kind> = { int: "number", bigint: "number", decimal: "number", float: "number", varchar: "text", text: "text", dropdown: "text", boolean: "bool", datetime: "datetime", date: "date", json: "json" };
const columnsOf = (kind: Kind) => THINGS_COLUMNS.filter((c) => KIND[c.type] === kind).map((c) => c.name);

const TEXTS = ["", "abc", "ABC", "abc ", "Abd", "ab", "a", "B", "é", "e", "😀", "\uFFFD", "a'b", "zz"];
const INSTANTS = ["2026-06-01T12:00:00.000Z", "2026-06-01T11:59:59.999Z", "2026-06-01T12:00:00.001Z", "2026-06-01T13:00:00Z", "2026-05-31T23:00:00Z", "2026-06-02T00:00:00Z", "1999-12-31T23:59:59Z"];
const DAYS = ["2026-06-01", "2026-05-31", "2026-12-31", "2000-01-01"];

/** Values per column (null included), as a key writes them. */
const ROW_VALUES = (userId: number): Record<string, readonly unknown[]> => ({
  n: [null, -5, 0, 1, 2, 10, 2147483647],
  big: [null, 0, 1, 3, 9007199254740991, -7],
  price: [null, 0, 1.5, 19.99, 20, -3.25],
  ratio: [null, 0.1, 0.5, 1, -2.5, 3.75],
  title: [null, ...TEXTS],
  body: [null, ...TEXTS],
  flag: [null, true, false],
  publish_at: [null, ...INSTANTS],
  day: [null, ...DAYS],
  kind: [null, "a", "B", "ab"],
  owner_id: [null, userId, userId + 1],
  data: [null, { a: 1 }, "text"],
});

export const generateRows = (rng: Rng, count: number, userId: number) => {
  const values = ROW_VALUES(userId);
  return Array.from({ length: count }, () => Object.fromEntries(Object.entries(values).map(([k, vs]) => [k, pick(rng, vs)])));
};

const quote = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
const LITERALS: Record<Exclude<Kind, "json">, readonly string[]> = {
  number: ["-5", "0", "1", "2", "2.5", "10", "19.99", "19.995", "20", "0.1", "-3.25", "9007199254740991", "'5'", "'1.5'"],
  text: TEXTS.map(quote),
  datetime: ["'2026-06-01T12:00:00Z'", "'2026-06-01 12:00:00'", "'2026-06-01T14:00:00+02:00'", "'2026-06-01'", "'2026-06-01T11:59:59.999Z'", "'2026-06-01 12:00:00.001'", "'2026-05-31T23:00'"],
  date: DAYS.map(quote),
  bool: ["true", "false", "0", "1"],
};
const OPS = ["=", "!=", "<>", "<", "<=", ">", ">="];
const CLAIMS = ["auth.id", "auth.sub", "auth.nosuch", "auth.role"];

const leaf = (rng: Rng): string => {
  const kind = pick(rng, ["number", "number", "text", "text", "datetime", "date", "bool", "json"] as const);
  const column = pick(rng, columnsOf(kind));
  if (kind === "json") return `${column} ${pick(rng, ["=", "!="])} null`;
  const literal = () => pick(rng, LITERALS[kind]);
  switch (Math.floor(rng() * 9)) {
    case 0:
      return `${column} ${pick(rng, ["=", "!="])} null`;
    case 1:
      return `${column} in (${Array.from({ length: 1 + Math.floor(rng() * 3) }, () => (rng() < 0.15 ? "null" : literal())).join(", ")})`;
    case 2:
      return `${literal()} ${pick(rng, OPS)} ${column}`;
    case 3:
      return `${column} ${pick(rng, OPS)} ${pick(rng, columnsOf(kind))}`;
    case 4:
      return kind === "number" || kind === "text" ? `${column} ${pick(rng, OPS)} ${pick(rng, CLAIMS.slice(0, 3))}` : kind === "bool" ? column : `${column} = null`;
    case 5:
      return pick(rng, ["true", "false", "auth.role = 'authenticated'", "auth.id > 0", "auth.sub = auth.id", `auth.role in ('x', 'authenticated')`]);
    default:
      return `${column} ${pick(rng, OPS)} ${literal()}`;
  }
};

/** A random policy of and/or/not/parentheses over comparisons, at most `depth` deep. */
export const generatePolicy = (rng: Rng, depth = 3): string => {
  if (depth === 0 || rng() < 0.35) return leaf(rng);
  const r = rng();
  if (r < 0.15) return `not (${generatePolicy(rng, depth - 1)})`;
  return `(${generatePolicy(rng, depth - 1)}) ${r < 0.55 ? "and" : "or"} (${generatePolicy(rng, depth - 1)})`;
};
