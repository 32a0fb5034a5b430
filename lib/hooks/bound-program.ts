// The run-time half of the cost bound: every operator and function call of a checked CEL program is wrapped so
// that it first checks the step's deadline, and the ones that can grow a value check the size of what they
// would build from their operands, before building it. Literal lists and maps are sized element by element.
import { tick } from "./budget-clock";
import { ELEMENT_SIZE, VALUE_LIMIT } from "./limits";
import { checkSize, sizeOf } from "./value-size";

export type AstNode = {
  op: string;
  args: unknown;
  handle?: (...args: unknown[]) => unknown;
  evaluate: (ev: Evaluator, ast: AstNode, ctx: unknown) => unknown;
  meta: { alternate?: AstNode; macro?: unknown };
};
type Evaluator = { run: (ast: AstNode, ctx: unknown) => unknown };

const isNode = (v: unknown): v is AstNode => typeof v === "object" && v !== null && typeof (v as AstNode).op === "string";

/** The nodes directly under a node, macros' expansions included. */
export const childrenOf = (node: AstNode): AstNode[] => {
  const out: AstNode[] = [];
  const visit = (v: unknown) => {
    if (isNode(v)) out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  if (node.op === "comprehension") {
    const a = node.args as Record<string, unknown>;
    [a.iterable, a.init, a.step].forEach(visit);
  } else if (node.op !== "value" && node.op !== "id") visit(node.args);
  if (node.meta.alternate) visit(node.meta.alternate);
  return out;
};

const countOf = (s: string, sep: string, most: number) => {
  let n = 0;
  for (let at = s.indexOf(sep); at >= 0 && n <= most; at = s.indexOf(sep, at + sep.length)) n++;
  return n;
};

/** What `s.split(sep[, limit])` would build, by counting separators without splitting. */
const splitSize = (s: unknown, sep: unknown, limit?: unknown) => {
  if (typeof s !== "string" || typeof sep !== "string") return 0;
  // Past VALUE_LIMIT / ELEMENT_SIZE pieces the list is too large anyway, so counting stops there.
  const most = Math.min(typeof limit === "bigint" && limit > 0n ? Number(limit) - 1 : s.length, VALUE_LIMIT / ELEMENT_SIZE);
  const cuts = sep === "" ? Math.max(0, Math.min(s.length, most + 1) - 1) : countOf(s, sep, most);
  return ELEMENT_SIZE + (cuts + 1) * ELEMENT_SIZE + s.length - cuts * sep.length;
};

const lengthOf = (v: unknown) => (typeof v === "string" || v instanceof Uint8Array ? v.length : 0);
const ASCII = /^[\x00-\x7f]*$/;

/** The size a function's result would have, from its arguments (receiver first), where it can grow. */
const GROWTH: Record<string, (args: unknown[]) => number> = {
  split: ([s, sep, limit]) => splitSize(s, sep, limit),
  join: ([list, sep = ""]) => (Array.isArray(list) ? list.reduce((n: number, v) => n + lengthOf(v), 0) + lengthOf(sep) * Math.max(0, list.length - 1) : 0),
  // Case mapping can lengthen non-ASCII text (ß → SS) by up to three times.
  lowerAscii: ([s]) => (typeof s === "string" && !ASCII.test(s) ? 3 * s.length : lengthOf(s)),
  upperAscii: ([s]) => (typeof s === "string" && !ASCII.test(s) ? 3 * s.length : lengthOf(s)),
  bytes: ([s]) => (typeof s === "string" ? Buffer.byteLength(s) : lengthOf(s)),
  hex: ([b]) => 2 * lengthOf(b),
  base64: ([b]) => 4 * Math.ceil(lengthOf(b) / 3),
};

const SURROGATE = /[\uD800-\uDFFF]/;

/** size() of a string in code points, as CEL counts it, with no iterator (the library's walk is ~6 ns/char). */
const codePoints = (s: string) => {
  if (!SURROGATE.test(s)) return s.length;
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const high = s.charCodeAt(i);
    const low = s.charCodeAt(i + 1);
    if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) (pairs++, i++);
  }
  return s.length - pairs;
};

const plusSize = (l: unknown, r: unknown) => (typeof l === "object" && l !== null && !(l instanceof Date) ? sizeOf(l) + sizeOf(r) : lengthOf(l) + lengthOf(r));

const checkResult = (value: unknown, what: string) => {
  if (typeof value === "object" && value !== null) checkSize(sizeOf(value), what);
  else if (typeof value === "string") checkSize(value.length, what);
  return value;
};

const wrapHandle = (node: AstNode) => {
  const handle = node.handle!;
  if (node.op === "+") {
    node.handle = (l, r, ast, ev) => {
      tick();
      checkSize(plusSize(l, r), "the result of +");
      return handle(l, r, ast, ev);
    };
  } else if (node.op === "call" || node.op === "rcall") {
    const name = (node.args as [string])[0];
    const grows = GROWTH[name];
    const what = `the result of ${name}()`;
    // call passes (args, ast, ev), rcall (receiverAndArgs, ev, ast).
    node.handle = (args, b, c) => {
      tick();
      const [first] = args as unknown[];
      if (name === "size" && typeof first === "string") return BigInt(codePoints(first));
      if (grows) checkSize(grows(args as unknown[]), what);
      return checkResult(handle(args, b, c), what);
    };
  } else {
    node.handle = (a, b, c, d) => {
      tick();
      return handle(a, b, c, d);
    };
  }
};

/** Literal lists and maps, built element by element with their size checked as they grow. */
const evaluateList = (ev: Evaluator, ast: AstNode, ctx: unknown) => {
  const items = ast.args as AstNode[];
  const out: unknown[] = [];
  let size = ELEMENT_SIZE;
  for (const item of items) {
    const v = ev.run(item, ctx);
    checkSize((size += ELEMENT_SIZE + sizeOf(v)), "a list");
    out.push(v);
  }
  return out;
};

const evaluateMap = (ev: Evaluator, ast: AstNode, ctx: unknown) => {
  const out: Record<string, unknown> = {};
  let size = ELEMENT_SIZE;
  for (const [k, v] of ast.args as [AstNode, AstNode][]) {
    const key = ev.run(k, ctx);
    const value = ev.run(v, ctx);
    checkSize((size += 2 * ELEMENT_SIZE + sizeOf(key) + sizeOf(value)), "a map");
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    out[String(key)] = value;
  }
  return out;
};

/** Wraps a checked program's nodes in place (call once, after `check()`, before the first evaluation). */
export const boundProgram = (root: AstNode) => {
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.handle) wrapHandle(node);
    if (node.op === "list" && !node.meta.alternate) node.evaluate = evaluateList;
    if (node.op === "map" && !node.meta.alternate) node.evaluate = evaluateMap;
    stack.push(...childrenOf(node));
  }
};
