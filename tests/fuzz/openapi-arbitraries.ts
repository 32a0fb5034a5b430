// Requests generated from a live data OpenAPI document (fast-check), hostile values included, and a small
// JSON Schema check of the answers against the document (ajv is not a dependency; this covers what the
// document uses: $ref, type, properties, required, items, enum, bounds, additionalProperties).
import fc from "fast-check";

type Json = Record<string, any>;
export type Doc = { paths: Record<string, Record<string, Json>>; components: Json };
export type FuzzRequest = { method: string; path: string; template: string; query: string; body?: string; key: "good" | "none" | "wrong" };

/** A JSON fragment written as-is into a body (JSON.stringify cannot write 1e999 or a lone surrogate escape). */
class Raw {
  constructor(readonly text: string) {}
}

const toText = (v: unknown): string => {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map(toText).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toText(x)}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
};

const deep = (levels: number) => new Raw(`${"[".repeat(levels)}1${"]".repeat(levels)}`);

/** Values no schema asks for, in even groups so each kind turns up often: numbers, text, depth, anything. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(new Raw("1e999"), new Raw("-1e999"), new Raw("1e-400"), new Raw("123456789012345678901234567890"), new Raw("-0"), 2 ** 31, 2 ** 53, -(2 ** 63), 0.1, 1e308, -1, 0),
  fc.constantFrom(new Raw(String.raw`"\ud800x"`), new Raw(String.raw`"\udc00"`), new Raw(String.raw`{"\ud83d":1}`), new Raw(String.raw`["\ud800"]`), new Raw(String.raw`"\u0000"`), "", " ", "%", "_", "'; DROP TABLE x; --", "null", "NaN", "Infinity", "2024-02-30", "2024-05-01T25:00:00Z", "😀", "x".repeat(70_000)),
  fc.constantFrom(deep(30), deep(31), deep(32), deep(40), deep(4500), new Raw(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`), [], {}, [1, "a"], { nested: { a: [1] } }),
  fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(null, true, false)),
);

const hostileQueryValue = fc.constantFrom("1e999", "-1e999", "1e400", "123456789012345678901234567890", "", "%ED%A0%80", "a%ED%B0%80", "%", "NaN", ",,", "true", "a%00b", "x".repeat(3000), "2024-02-30", "-0");

const resolve = (doc: Doc, schema: Json | undefined): Json => {
  let s = schema ?? {};
  while (s.$ref) s = s.$ref.split("/").slice(1).reduce((node: Json, part: string) => node[part], doc as Json);
  return s;
};

/** A value the schema allows, or (when `hostile`) with some chance one it does not. */
const valueFor = (doc: Doc, raw: Json, depth = 0, hostile = true): fc.Arbitrary<unknown> => {
  const schema = resolve(doc, raw);
  const fitting = (): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
    const nullable = Array.isArray(schema.type) && schema.type.includes("null");
    const base = ((): fc.Arbitrary<unknown> => {
      switch (type) {
        case "string":
          if (schema.format === "date") return fc.date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
          if (schema.format === "date-time") return fc.date({ min: new Date("1900-01-01"), max: new Date("2200-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
          return fc.string({ unit: "grapheme", maxLength: Math.min(schema.maxLength ?? 30, 30) });
        case "integer":
          return fc.integer({ min: Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31)), max: Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1) });
        case "number":
          return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => Math.round(n * 100) / 100));
        case "boolean":
          return fc.boolean();
        case "array":
          return depth > 2 ? fc.constant([]) : fc.array(valueFor(doc, schema.items ?? {}, depth + 1), { maxLength: 3 });
        case "object":
          return depth > 2 ? fc.constant({}) : objectFor(doc, schema, depth + 1);
        default:
          return fc.jsonValue({ maxDepth: 3 });
      }
    })();
    return nullable ? fc.option(base, { freq: 5, nil: null }) : base;
  };
  return hostile ? fc.oneof({ weight: 3, arbitrary: fitting() }, { weight: 1, arbitrary: hostileValue }) : fitting();
};

const AUTOMATIC = new Set(["id", "created_at", "updated_at"]);

/**
 * An object from `properties`: required ones mostly present, others sometimes; half the time exactly one value
 * is hostile (so the others do not hide it behind their own 422), now and then an unknown property.
 */
const objectFor = (doc: Doc, schema: Json, depth = 0): fc.Arbitrary<Json> => {
  // The automatic columns are accepted on PUT/PATCH only with their stored value: leave them to the mutations.
  const properties: Json = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name, sub]) => !AUTOMATIC.has(name) && !resolve(doc, sub as Json).readOnly));
  const required = new Set<string>(schema.required ?? []);
  const entries = Object.entries(properties).map(([name, sub]) =>
    fc.tuple(fc.constant(name), valueFor(doc, sub, depth, false), fc.integer({ min: 0, max: 9 })).map(([n, v, roll]) => (roll < (required.has(n) ? 9 : 5) ? [[n, v]] : [])),
  );
  const names = Object.keys(properties);
  const mutation = names.length ? fc.option(fc.tuple(fc.constantFrom(...names), hostileValue), { freq: 2 }) : fc.constant(null);
  const extra = fc.oneof({ weight: 12, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.tuple(fc.constantFrom("unknown_field", "id", "created_at", "__proto__", ""), hostileValue).map((e) => [e]) });
  return fc.tuple(fc.tuple(...entries), mutation, extra).map(([pairs, mutated, more]) =>
    Object.fromEntries([...pairs.flat(), ...(mutated ? [mutated] : []), ...more] as [string, unknown][]),
  );
};

const bodyFor = (doc: Doc, op: Json): fc.Arbitrary<string | undefined> => {
  const content = resolve(doc, op.requestBody)?.content?.["application/json"];
  if (!content) return fc.constant(undefined);
  const schema = resolve(doc, content.schema);
  const one = schema.oneOf ? fc.oneof(...schema.oneOf.map((s: Json) => valueFor(doc, s))) : valueFor(doc, schema);
  return fc.oneof(
    { weight: 14, arbitrary: one.map(toText) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,", "nul", "[]", "{}", "[[]]", "\"text\"", "1e999", toText(deep(4500)), `[${"{},".repeat(1000)}{}]`) },
  );
};

/** A path id: `@n` picks the n-th id the test has seen created (resolved when sent), or a hostile text. */
const ID_ARBITRARY = fc.oneof(
  { weight: 6, arbitrary: fc.nat(1000).map((n) => `@${n}`) },
  { weight: 1, arbitrary: fc.constantFrom("0", "-1", "abc", "1e999", "1.5", "99999999999999999999", "%ED%A0%80", "%00", "9007199254740993") },
);

/** Query text for an operation: some declared parameters with fitting or hostile values, now and then an unknown one. */
const queryFor = (doc: Doc, op: Json): fc.Arbitrary<string> => {
  const params = (op.parameters ?? []).map((p: Json) => resolve(doc, p)).filter((p: Json) => p.in === "query");
  if (params.length === 0) return fc.constantFrom("", "", "", "unknown=1");
  const valueText = (p: Json) =>
    fc.oneof(
      // Capped: a request line over 16 KiB is Node's HTTP parser's 431 (no body), before the app sees it.
      { weight: 6, arbitrary: valueFor(doc, p.schema ?? {}).map((v) => (Array.isArray(v) ? v.join(",") : typeof v === "string" ? v : toText(v)).slice(0, 2000)).map(encodeURIComponent) },
      { weight: 3, arbitrary: hostileQueryValue },
    );
  const pick = fc.constantFrom(...params).chain((p: Json) => valueText(p).map((v) => `${encodeURIComponent(p.name)}=${v}`));
  const odd = fc.constantFrom("_limit=0", "_limit=1001", "_offset=-1", "_sort=-nope", "nope_gt=1", "_unknown=1", "_limit=abc");
  return fc.tuple(fc.array(pick, { maxLength: 4 }), fc.option(odd, { freq: 6 })).map(([parts, extra]) => [...parts, ...(extra ? [extra] : [])].join("&"));
};

/** Every operation of the document as a request arbitrary. */
export const requestArbitrary = (doc: Doc, base: string): fc.Arbitrary<FuzzRequest> => {
  const ops = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      // A stream (the change feed) never ends, so it cannot be read whole; tests/events covers it.
      .filter(([, op]) => !(op as Json).responses?.["200"]?.content?.["text/event-stream"])
      .map(([method, op]) =>
        fc
          .record({
            id: ID_ARBITRARY,
            query: queryFor(doc, op),
            body: bodyFor(doc, op),
            key: fc.oneof({ weight: 30, arbitrary: fc.constant("good") }, { weight: 1, arbitrary: fc.constantFrom("none", "wrong") }),
          })
          .map(({ id, query, body, key }) => ({ method: method.toUpperCase(), template, path: `${base}${template.replace("{id}", id)}`, query, body, key: key as FuzzRequest["key"] })),
      ),
  );
  return fc.oneof(...ops);
};

/** Problems of `value` against `schema` (empty when it conforms). */
export const schemaProblems = (doc: Doc, raw: Json | undefined, value: unknown, at = "$"): string[] => {
  const schema = resolve(doc, raw);
  if (schema.oneOf || schema.anyOf) {
    const options: Json[] = schema.oneOf ?? schema.anyOf;
    return options.some((s) => schemaProblems(doc, s, value, at).length === 0) ? [] : [`${at}: matches none of its schemas`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in enum`];
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat();
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  if (types && !types.includes(kind) && !(kind === "integer" && types.includes("number"))) return [`${at}: ${kind} where ${types.join("|")} expected`];
  const problems: string[] = [];
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: below minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: above maximum`);
  }
  if (typeof value === "string" && schema.maxLength !== undefined && [...value].length > schema.maxLength) problems.push(`${at}: longer than maxLength`);
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => problems.push(...schemaProblems(doc, schema.items, v, `${at}[${i}]`)));
  if (kind === "object" && (schema.properties || schema.required)) {
    const obj = value as Json;
    for (const name of schema.required ?? []) if (!(name in obj)) problems.push(`${at}.${name}: required`);
    for (const [name, v] of Object.entries(obj)) {
      const sub = schema.properties?.[name];
      if (sub) problems.push(...schemaProblems(doc, sub, v, `${at}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${at}.${name}: not declared`);
    }
  }
  return problems;
};

/**
 * Values a successful write answered differently from what was sent: strings (not passwords) and json values
 * must come back exactly as written (a lone surrogate stored as U+FFFD would show here).
 */
export const roundTripProblems = (doc: Doc, template: string, method: string, sent: string | undefined, answer: unknown): string[] => {
  if (sent === undefined || !["POST", "PUT", "PATCH"].includes(method) || template.startsWith("/auth")) return [];
  // A PATCH by filter answers {"affected": n}, not the records it wrote.
  if (method === "PATCH" && !template.includes("{id}")) return [];
  const input = resolve(doc, resolve(doc, doc.paths[template]?.[method.toLowerCase()]?.requestBody)?.content?.["application/json"]?.schema);
  const object = resolve(doc, input.oneOf?.[0] ?? input);
  const properties: Json = object.properties ?? {};
  const rows = [JSON.parse(sent)].flat();
  const answers = [answer].flat() as Json[];
  return rows.flatMap((row: Json, i: number) =>
    Object.entries(row).flatMap(([name, value]) => {
      const schema = resolve(doc, properties[name]);
      const kept = schema.format !== "password" && !schema.writeOnly && (schema.type === undefined || (typeof value === "string" && [schema.type].flat().includes("string")));
      if (!properties[name] || !kept) return [];
      return JSON.stringify(answers[i]?.[name]) === JSON.stringify(value) ? [] : [`${name}: sent ${JSON.stringify(value).slice(0, 60)}, answered ${JSON.stringify(answers[i]?.[name]).slice(0, 60)}`];
    }),
  );
};

/** The declared response of an operation for a status, resolved, or undefined when not declared. */
export const declaredResponse = (doc: Doc, template: string, method: string, status: number): Json | undefined => {
  const responses: Json = doc.paths[template]?.[method.toLowerCase()]?.responses ?? {};
  const declared = responses[String(status)] ?? responses.default;
  return declared && resolve(doc, declared);
};
