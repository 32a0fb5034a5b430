// The row-policy expression language (docs/api.md, "Row Level Security"):
//   expr := or;  or := and ("or" and)*;  and := not ("and" not)*;  not := "not" not | cmp
//   cmp  := operand [("=" | "!=" | "<>" | ">" | ">=" | "<" | "<=") operand | "in" "(" literal ("," literal)* ")"]
//   operand := column | literal | auth.id | auth.<claim> | "(" expr ")"
// Positions are 1-based character offsets into the text. Anything else (function calls, subqueries,
// unknown columns, a literal or column of another kind than the column it meets) is refused with the position
// of the offending token.
import { domainOf, literalProblem } from "./policy-values";
import { isSecret } from "../schema/type-traits";
import type { ColumnType } from "../schema/types";

export type Literal = string | number | boolean | null;
export type Operand =
  | { kind: "column"; name: string; pos: number }
  | { kind: "literal"; value: Literal; pos: number }
  | { kind: "auth"; claim: string; pos: number };
export type CompareOp = "=" | "!=" | ">" | ">=" | "<" | "<=";
export type PolicyNode =
  | { kind: "and" | "or"; left: PolicyNode; right: PolicyNode }
  | { kind: "not"; expr: PolicyNode }
  | { kind: "compare"; op: CompareOp; left: Operand; right: Operand }
  | { kind: "in"; left: Operand; values: Operand[] }
  | { kind: "value"; operand: Operand };

export class PolicyError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`position ${position}: ${message}`);
  }
}

type Token = { type: "ident" | "string" | "number" | "op" | "punct" | "end"; text: string; value?: Literal; pos: number };

const KEYWORDS = new Set(["and", "or", "not", "in", "true", "false", "null"]);
const MAX_POLICY_LENGTH = 2000;

/** Splits a policy into tokens; exported for rename rewrites (identifier tokens carry their positions). */
export const tokenize = (text: string): Token[] => {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const pos = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new PolicyError("unterminated string", pos);
        const d = text[i];
        if (d === "\\") {
          if (i + 1 >= text.length) throw new PolicyError("unterminated string", pos);
          const e = text[i + 1];
          value += e === "n" ? "\n" : e === "t" ? "\t" : e;
          i += 2;
        } else if (d === c) {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      tokens.push({ type: "string", text: text.slice(pos - 1, i), value, pos });
    } else if (/[0-9]/.test(c) || (c === "-" && /[0-9]/.test(text[i + 1] ?? ""))) {
      const m = /^-?\d+(\.\d+)?/.exec(text.slice(i))!;
      if (/^[A-Za-z_]/.test(text[i + m[0].length] ?? "")) throw new PolicyError(`unexpected "${text[i + m[0].length]}"`, i + m[0].length + 1);
      tokens.push({ type: "number", text: m[0], value: Number(m[0]), pos });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ type: "ident", text: m[0], pos });
      i += m[0].length;
    } else {
      const two = text.slice(i, i + 2);
      if (["!=", "<>", ">=", "<="].includes(two)) {
        tokens.push({ type: "op", text: two === "<>" ? "!=" : two, pos });
        i += 2;
      } else if ("=<>".includes(c)) {
        tokens.push({ type: "op", text: c, pos });
        i++;
      } else if ("(),.".includes(c)) {
        tokens.push({ type: "punct", text: c, pos });
        i++;
      } else {
        throw new PolicyError(`unexpected character "${c}"`, pos);
      }
    }
  }
  tokens.push({ type: "end", text: "", pos: text.length + 1 });
  return tokens;
};

const describe = (t: Token) => (t.type === "end" ? "the end of the expression" : `"${t.text}"`);

/** Parses a policy against the columns it may name. Throws PolicyError with the position of the problem. */
export const parsePolicy = (text: string, columns: ReadonlyMap<string, ColumnType>): PolicyNode => {
  if (text.length > MAX_POLICY_LENGTH) throw new PolicyError(`a policy is at most ${MAX_POLICY_LENGTH} characters`, MAX_POLICY_LENGTH + 1);
  const tokens = tokenize(text);
  let at = 0;
  let depth = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const isWord = (t: Token, word: string) => t.type === "ident" && t.text.toLowerCase() === word;
  const expect = (type: Token["type"], textValue: string) => {
    const t = next();
    if (t.type !== type || t.text !== textValue) throw new PolicyError(`expected "${textValue}" but found ${describe(t)}`, t.pos);
  };

  const literal = (t: Token): Operand | undefined => {
    if (t.type === "string" || t.type === "number") return { kind: "literal", value: t.value!, pos: t.pos };
    if (isWord(t, "true")) return { kind: "literal", value: true, pos: t.pos };
    if (isWord(t, "false")) return { kind: "literal", value: false, pos: t.pos };
    if (isWord(t, "null")) return { kind: "literal", value: null, pos: t.pos };
    return undefined;
  };

  const operand = (): Operand | PolicyNode => {
    const t = next();
    const lit = literal(t);
    if (lit) return lit;
    if (t.type === "punct" && t.text === "(") {
      if (++depth > 32) throw new PolicyError("too deeply nested", t.pos);
      const inner = orExpr();
      expect("punct", ")");
      depth--;
      return inner;
    }
    if (t.type !== "ident" || KEYWORDS.has(t.text.toLowerCase())) throw new PolicyError(`expected a column, a value or auth.id but found ${describe(t)}`, t.pos);
    if (peek().type === "punct" && peek().text === "(") throw new PolicyError(`function calls are not allowed ("${t.text}(")`, t.pos);
    if (t.text === "auth") {
      expect("punct", ".");
      const claim = next();
      if (claim.type !== "ident") throw new PolicyError(`expected a claim name after "auth." but found ${describe(claim)}`, claim.pos);
      return { kind: "auth", claim: claim.text, pos: t.pos };
    }
    if (peek().type === "punct" && peek().text === ".") throw new PolicyError(`only auth.<claim> may be qualified; "${t.text}." is not allowed`, t.pos);
    const type = columns.get(t.text);
    if (!type) throw new PolicyError(`unknown column "${t.text}"`, t.pos);
    if (isSecret(type)) throw new PolicyError(`password column "${t.text}" cannot be used in a policy`, t.pos);
    return { kind: "column", name: t.text, pos: t.pos };
  };

  const isNode = (x: Operand | PolicyNode): x is PolicyNode => !["column", "literal", "auth"].includes(x.kind);

  /** A value beside a column must have a form in the column's type (policy-values.ts); null always may. */
  const checkKinds = (a: Operand, b: Operand) => {
    if (a.kind !== "column") return;
    const type = columns.get(a.name)!;
    if (b.kind === "literal" && b.value !== null) {
      const problem = literalProblem(b.value, type, a.name);
      if (problem) throw new PolicyError(problem, b.pos);
    }
    if (b.kind === "auth" && domainOf(type) === "json") throw new PolicyError(literalProblem(0, type, a.name)!, b.pos);
    if (b.kind === "column" && (domainOf(type) !== domainOf(columns.get(b.name)!) || domainOf(type) === "json")) {
      throw new PolicyError(`columns "${a.name}" (${type}) and "${b.name}" (${columns.get(b.name)}) cannot be compared`, b.pos);
    }
  };

  const comparison = (): PolicyNode => {
    const start = peek();
    const left = operand();
    const t = peek();
    if (t.type === "op") {
      if (isNode(left)) throw new PolicyError("a comparison needs a column, a value or auth.<claim> on each side", start.pos);
      next();
      const rightStart = peek();
      const right = operand();
      if (isNode(right)) throw new PolicyError("a comparison needs a column, a value or auth.<claim> on each side", rightStart.pos);
      checkKinds(left, right);
      if (left.kind !== "column") checkKinds(right, left);
      return { kind: "compare", op: t.text as CompareOp, left, right };
    }
    if (isWord(t, "in")) {
      if (isNode(left)) throw new PolicyError('"in" needs a column or auth.<claim> on its left', start.pos);
      next();
      expect("punct", "(");
      const values: Operand[] = [];
      for (;;) {
        const v = next();
        const lit = literal(v);
        if (!lit) throw new PolicyError(`expected a literal value in the list but found ${describe(v)}`, v.pos);
        if (left.kind === "column") checkKinds(left, lit);
        values.push(lit);
        const sep = next();
        if (sep.type === "punct" && sep.text === ")") break;
        if (sep.type !== "punct" || sep.text !== ",") throw new PolicyError(`expected "," or ")" but found ${describe(sep)}`, sep.pos);
        if (values.length >= 1000) throw new PolicyError("a list holds at most 1000 values", sep.pos);
      }
      return { kind: "in", left, values };
    }
    if (isNode(left)) return left;
    const boolish = (left.kind === "literal" && typeof left.value === "boolean") || (left.kind === "column" && columns.get(left.name) === "boolean");
    if (!boolish) throw new PolicyError(`expected a comparison after ${describe(start)} (only true, false or a boolean column stand alone)`, t.pos);
    return { kind: "value", operand: left };
  };

  const notExpr = (): PolicyNode => {
    if (isWord(peek(), "not")) {
      next();
      return { kind: "not", expr: notExpr() };
    }
    return comparison();
  };
  const andExpr = (): PolicyNode => {
    let left = notExpr();
    while (isWord(peek(), "and")) {
      next();
      left = { kind: "and", left, right: notExpr() };
    }
    return left;
  };
  const orExpr = (): PolicyNode => {
    let left = andExpr();
    while (isWord(peek(), "or")) {
      next();
      left = { kind: "or", left, right: andExpr() };
    }
    return left;
  };

  if (peek().type === "end") throw new PolicyError("the policy is empty (use true for every row, or null to deny)", 1);
  const tree = orExpr();
  const rest = peek();
  if (rest.type !== "end") throw new PolicyError(`unexpected ${describe(rest)}`, rest.pos);
  return tree;
};

/** The policy text with a column renamed (identifier tokens only; strings and auth claims untouched). */
export const renamePolicyColumn = (text: string, from: string, to: string): string => {
  const tokens = tokenize(text);
  let out = "";
  let last = 0;
  tokens.forEach((t, i) => {
    const afterDot = i > 0 && tokens[i - 1].type === "punct" && tokens[i - 1].text === ".";
    if (t.type === "ident" && t.text === from && !afterDot) {
      out += text.slice(last, t.pos - 1) + to;
      last = t.pos - 1 + t.text.length;
    }
  });
  return out + text.slice(last);
};

/** Column names a policy mentions (to refuse dropping them). */
export const policyColumns = (text: string): string[] => {
  const tokens = tokenize(text);
  return tokens
    .filter((t, i) => t.type === "ident" && !KEYWORDS.has(t.text.toLowerCase()) && t.text !== "auth" && !(i > 0 && tokens[i - 1].text === "."))
    .map((t) => t.text);
};
