// The size of a CEL value as the cost bound counts it (lib/hooks/limits.ts). Lists and maps are measured once
// and remembered, so a value reused through cel.bind is not walked again; the walk stops past the limit.
import { ELEMENT_SIZE, VALUE_LIMIT } from "./limits";

const measured = new WeakMap<object, number>();

export const sizeOf = (value: unknown): number => {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null) return ELEMENT_SIZE;
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Date) return ELEMENT_SIZE;
  const known = measured.get(value);
  if (known !== undefined) return known;
  let size = ELEMENT_SIZE;
  const add = (v: unknown) => {
    size += ELEMENT_SIZE + sizeOf(v);
    return size > VALUE_LIMIT;
  };
  if (Array.isArray(value) || value instanceof Set) {
    for (const v of value) if (add(v)) break;
  } else if (value instanceof Map) {
    for (const [k, v] of value) if (add(k) || add(v)) break;
  } else {
    for (const k in value) if (add(k) || add((value as Record<string, unknown>)[k])) break;
  }
  measured.set(value, size);
  return size;
};

/** Thrown before a value over VALUE_LIMIT would be built; the step fails with this message. */
class ValueTooLarge extends Error {
  constructor(what: string) {
    super(`${what} would be larger than ${VALUE_LIMIT} (1 MiB), the limit of any value a hook builds`);
  }
}

export const checkSize = (size: number, what: string) => {
  if (size > VALUE_LIMIT) throw new ValueTooLarge(what);
};
