// The value checks of the column types that need no Node API: the server (column-types.ts) and the dashboard's
// forms both run these, so a limit (integer range, decimal scale, finite doubles, real dates) is written once.

export type Check<T = unknown> = { ok: true; value: T } | { ok: false; code: string; message: string };

export const ok = <T>(value: T): Check<T> => ({ ok: true, value });
export const bad = (code: string, message: string): Check<never> => ({ ok: false, code, message });

/** bigint is held to what a JSON number carries exactly (2^53 - 1), so no client rounds an id silently. */
export const INT_RANGE = { int: [-2147483648, 2147483647], bigint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] } as const;
/** Bytes of a text value; characters of a varchar are its `length`. */
export const TEXT_MAX_BYTES = 65535;
/** bcrypt reads only the first 72 bytes of a password. */
export const PASSWORD_MAX_BYTES = 72;

export const checkInteger = (v: unknown, [min, max]: readonly number[], unsigned = false): Check<number> => {
  if (typeof v !== "number" || !Number.isInteger(v)) return bad("invalid_type", "must be an integer");
  if (v < (unsigned ? 1 : min) || v > max) return bad("out_of_range", `must be between ${unsigned ? 1 : min} and ${max}`);
  return ok(v);
};

export const parseIntegerText = (s: string, range: readonly number[], unsigned = false): Check<number> =>
  /^-?\d{1,16}$/.test(s) ? checkInteger(Number(s), range, unsigned) : bad("invalid_type", "must be an integer");

export const numberText = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export const checkDecimal = (v: unknown, c: { precision?: number; scale?: number }): Check<number> => {
  if (typeof v !== "number" || !Number.isFinite(v)) return bad("invalid_type", "must be a number");
  const precision = c.precision ?? 10;
  const scale = c.scale ?? 2;
  // Rounding to the scale must give the same double back; this also catches 1e-21 and other exponents.
  const factor = 10 ** scale;
  if (Math.round(v * factor) / factor !== v) return bad("too_many_decimals", `must have at most ${scale} decimal places`);
  if (Math.abs(v) >= 10 ** (precision - scale)) return bad("out_of_range", `must be less than 10^${precision - scale} in magnitude`);
  return ok(v);
};

/** A double: finite, so `1e999` (Infinity once parsed) is refused rather than reaching the engine. */
export const checkFloat = (v: unknown): Check<number> => {
  if (typeof v !== "number") return bad("invalid_type", "must be a number");
  return Number.isFinite(v) ? ok(v) : bad("not_finite", "must be a finite number (at most about 1.8e308 in magnitude)");
};

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const isRealDate = (s: string) => {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
};

export const checkDate = (v: unknown): Check<string> =>
  typeof v === "string" && isRealDate(v) ? ok(v) : bad("invalid_date", "must be a date as YYYY-MM-DD");

const ISO_DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Stored form of a datetime on both engines: UTC "YYYY-MM-DD HH:MM:SS.mmm", which sorts as text. */
export const toStoredDatetime = (d: Date) => d.toISOString().replace("T", " ").slice(0, 23);

export const checkDatetime = (v: unknown): Check<string> => {
  if (typeof v !== "string" || !ISO_DATETIME_RE.test(v) || !isRealDate(v.slice(0, 10))) {
    return bad("invalid_datetime", "must be an ISO-8601 datetime with Z or an offset, e.g. 2024-05-01T12:00:00Z");
  }
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? bad("invalid_datetime", "is not a real point in time") : ok(toStoredDatetime(d));
};
