// The console's tokenizer against MariaDB's own lexer: generated statements put comments, quotes and every
// Unicode space class in random places, and the columns MariaDB returns must be the ones the tokenizer reads
// as code. MariaDB only: the statements are MariaDB's dialect (`#`, backslash escapes), and the point is to
// agree with its lexer, which only a real server shows.
import { type Connection, createConnection } from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mysqlConnectionOptions } from "../../lib/db/engine";
import { type Token, tokenizeSql } from "../../lib/sql-console/tokenize-sql";

const ASCII_SPACES = ["\t", "\n", "\v", "\f", "\r", " "];
const UNICODE_SPACES = ["\u0085", "\u00a0", "\u1680", ..."\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];
const CONTROLS = ["\u0001", "\u001f", "\u007f"];
const CASES = 500;

/** mulberry32: the same cases on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const generator = (rand: () => number) => {
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const gap = () => Array.from({ length: Math.floor(rand() * 3) }, () => pick(ASCII_SPACES.filter((s) => s !== "\n"))).join("") || " ";
  const any = () => pick([...ASCII_SPACES, ...UNICODE_SPACES, ...CONTROLS, "a", ",", "-", "--", "#", "/*", "*/", "`", '"', "'", "\\"]);
  /** Text for inside a quoted run: every quote doubled or escaped as the quote requires. */
  const inner = (quote: string) =>
    Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
      const c = any();
      if (c === quote) return quote === "`" ? "``" : pick([quote + quote, `\\${quote}`]);
      if (c === "\\") return quote === "`" ? "\\" : pick(["\\\\", `\\${pick(UNICODE_SPACES)}`, "\\n"]);
      return c;
    }).join("");
  /** What a comment hides, or, when it is not one, more columns (the last one takes the alias that follows). */
  const junk = (i: number) => `, 9 AS z${i} , 8`;
  const column = (i: number) => {
    const alias = rand() < 0.3 ? `\`k${i}${inner("`").replace(/\n/g, "")}x\`` : `k${i}`;
    const value = pick([() => String(i), () => `'${inner("'")}'`, () => `"${inner('"')}"`, () => `\`${pick(UNICODE_SPACES)}\``, () => `${i} - -\`${pick(UNICODE_SPACES)}\``])();
    const dash = rand() < 0.5 ? `${gap()}--${pick([...ASCII_SPACES, ...UNICODE_SPACES, ...CONTROLS])}${junk(i)}\n` : gap();
    const after = pick([() => "", () => `${gap()}#${pick(UNICODE_SPACES)}${junk(i)}\n`, () => `${gap()}/*${inner("*").replace(/\*\/|\/\*|^[!M]/g, "")} ${junk(i)} */`])();
    return `${value}${dash}AS ${alias}${after}`;
  };
  const cte = `WITH c AS (SELECT ${UNICODE_SPACES.map((s) => `0 AS \`${s}\``).join(", ")})`;
  return () => `${cte} SELECT ${Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => column(i)).join(`${gap()},${gap()}`)}${gap()}\nFROM c`;
};

/** The result's columns as the tokenizer reads the statement: one per top-level comma, named by its AS, if any. */
const predictColumns = (tokens: Token[]) => {
  const selects = tokens.flatMap((t, i) => (t.kind === "word" && t.upper === "SELECT" ? [i] : []));
  const start = selects[1]; // the first is the CTE's
  const names: (string | null)[] = [null];
  let depth = 0;
  for (let i = start + 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === "word" && t.upper === "FROM" && depth === 0) break;
    if (t.kind === "punct" && t.text === "(") depth++;
    if (t.kind === "punct" && t.text === ")") depth--;
    if (t.kind === "punct" && t.text === "," && depth === 0) names.push(null);
    const next = tokens[i + 1];
    if (t.kind === "word" && t.upper === "AS" && (next?.kind === "word" || next?.kind === "name")) names[names.length - 1] = next.text;
  }
  return names;
};

describe.runIf(process.env.TEST_MYSQL_URL)("the console's tokenizer and MariaDB's lexer", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await createConnection(mysqlConnectionOptions(process.env.TEST_MYSQL_URL!));
    await conn.query("SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION'");
  });
  afterAll(async () => conn?.end());

  it(`agree on which columns ${CASES} generated statements return`, async () => {
    const next = generator(random(20_240_601));
    let ran = 0;
    for (let n = 0; n < CASES; n++) {
      const sql = next();
      const lexed = tokenizeSql(sql, "mysql");
      expect(lexed.problem, JSON.stringify(sql)).toBeUndefined();
      const predicted = predictColumns(lexed.tokens);
      let actual: string[];
      try {
        const [, fields] = await conn.query({ sql, rowsAsArray: true });
        actual = fields.map((f) => f.name);
      } catch (err) {
        // A statement MariaDB cannot parse runs nothing; the tokenizer only has to agree on what runs.
        expect((err as { errno?: number }).errno, `${JSON.stringify(sql)}: ${(err as Error).message}`).toBe(1064);
        continue;
      }
      ran++;
      expect(actual.length, JSON.stringify(sql)).toBe(predicted.length);
      predicted.forEach((name, i) => name !== null && expect(actual[i], JSON.stringify(sql)).toBe(name));
    }
    // Most of them run: the comparison is the test, not the syntax errors.
    expect(ran).toBeGreaterThan(CASES * 0.6);
  });
});
