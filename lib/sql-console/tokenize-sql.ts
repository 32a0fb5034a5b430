// A tokenizer for the SQL console's checks, written to each engine's lexer (MariaDB: backslash escapes in strings,
// `#` comments, `--` a comment only before an ASCII space or control character, backtick names; SQLite: `"x"` and
// `[x]` names, `--` always a comment). Only ASCII whitespace separates: U+00A0, U+3000… are name characters to both.
import type { EngineKind } from "../config";

export type Token =
  | { kind: "word"; text: string; upper: string }
  | { kind: "name"; text: string }
  | { kind: "string" }
  | { kind: "variable" }
  | { kind: "punct"; text: string; at: number };

export type Lexed = { tokens: Token[]; problem?: { code: string; message: string } };

const WORD = /[A-Za-z0-9_$\u0080-\uFFFF]/;
/** my_isspace in MariaDB's utf8mb4 ctype; SQLite's tokenizer takes \v for an illegal character, not a space. */
const SPACE = { mysql: /[ \t\n\v\f\r]/, sqlite: /[ \t\n\f\r]/ };
/** MariaDB starts a `--` comment only when the next byte is my_isspace or my_iscntrl (0x00–0x20, 0x7F), or at the end. */
const dashDashComment = (after: string | undefined) => after === undefined || after.charCodeAt(0) <= 0x20 || after === "\x7f";

/** Reads a quoted run from `i` (at the opening quote); returns its text and the index after the closing quote. */
const quoted = (sql: string, i: number, close: string, backslash: boolean): { text: string; end: number } | undefined => {
  let text = "";
  for (let j = i + 1; j < sql.length; j++) {
    const ch = sql[j];
    if (backslash && ch === "\\") {
      text += sql[j + 1] ?? "";
      j++;
    } else if (ch === close) {
      if (sql[j + 1] === close && close !== "]") {
        text += close;
        j++;
      } else return { text, end: j + 1 };
    } else text += ch;
  }
  return undefined;
};

export const tokenizeSql = (sql: string, engine: EngineKind): Lexed => {
  const mysql = engine === "mysql";
  const tokens: Token[] = [];
  const space = SPACE[engine];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1] ?? "";
    if (space.test(ch)) {
      i++;
    } else if ((ch === "-" && next === "-" && (!mysql || dashDashComment(sql[i + 2]))) || (mysql && ch === "#")) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (ch === "/" && next === "*") {
      // MariaDB runs the inside of /*! ... */ and /*M! ... */ as code: refused rather than read twice.
      if (/^\/\*M?!/.test(sql.slice(i, i + 4))) return { tokens, problem: { code: "executable_comment", message: "uses a /*! ... */ comment, which MariaDB runs as code; remove it" } };
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return { tokens, problem: { code: "syntax", message: "has a /* comment that is never closed" } };
      i = end + 2;
    } else if (ch === "'" || (mysql && ch === '"')) {
      const q = quoted(sql, i, ch, mysql);
      if (!q) return { tokens, problem: { code: "syntax", message: "has a quoted text that is never closed" } };
      tokens.push({ kind: "string" });
      i = q.end;
    } else if (ch === "`" || (!mysql && (ch === '"' || ch === "["))) {
      const q = quoted(sql, i, ch === "[" ? "]" : ch, false);
      if (!q) return { tokens, problem: { code: "syntax", message: "has a quoted name that is never closed" } };
      tokens.push({ kind: "name", text: q.text });
      i = q.end;
    } else if (WORD.test(ch)) {
      let j = i;
      while (j < sql.length && WORD.test(sql[j])) j++;
      const text = sql.slice(i, j);
      tokens.push({ kind: "word", text, upper: text.toUpperCase() });
      i = j;
    } else if (ch === "@" || ch === "?" || (!mysql && (ch === ":" || ch === "$" || ch === "#"))) {
      tokens.push({ kind: "variable" });
      i++;
    } else {
      tokens.push({ kind: "punct", text: ch, at: i });
      i++;
    }
  }
  return { tokens };
};
