// The live OpenAPI 3.1 document, restated as OpenAPI 3.0 for Swagger UI alone. Swagger UI reads 3.1 through
// its ApiDOM resolver, which took about 7 s of main-thread time on an 8-table database's document (700 KB);
// its 3.0 resolver reads the same document in a fraction of that. Only what 3.0 spells differently changes:
// `type: [T, "null"]` becomes `type: T, nullable: true`, a schema's `examples` list its `example`, `const`
// a one-value `enum`. The raw document (`openapi.json`) stays 3.1 for clients and generators.
// Plain JavaScript, never compiled: the public page's route serves this very file (lib/docs/serve-docs.ts).

/** Keys whose value maps names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(["properties", "schemas", "patternProperties", "$defs"]);
/** Keys whose value is a schema or a list of schemas. */
const SCHEMA_KEYS = new Set(["schema", "items", "additionalProperties", "oneOf", "anyOf", "allOf", "not"]);

const restate = (node, inSchema) => {
  if (Array.isArray(node)) return node.map((item) => restate(item, inSchema));
  if (!node || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && value && typeof value === "object" && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, restate(schema, true)]));
    } else if (inSchema && key === "type" && Array.isArray(value)) {
      const types = value.filter((t) => t !== "null");
      if (types.length < value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
    } else if (inSchema && key === "examples" && Array.isArray(value)) {
      if (value.length) out.example = value[0];
    } else if (inSchema && key === "const") {
      out.enum = [value];
    } else {
      out[key] = restate(value, inSchema || SCHEMA_KEYS.has(key));
    }
  }
  return out;
};

/** A copy of `doc` that Swagger UI reads with its OpenAPI 3.0 resolver; other versions are returned as they are. */
export function openApiForSwagger(doc) {
  if (!doc || typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.1")) return doc;
  const { webhooks, jsonSchemaDialect, ...rest } = restate(doc, false);
  return { ...rest, openapi: "3.0.3" };
}
