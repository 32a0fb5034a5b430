import { validationFailed } from "../errors";
import { LONE_SURROGATE_PROBLEM } from "../schema/value-limits";

const decodes = (text: string) => {
  try {
    // A `%` that starts no escape stays literal, as URLSearchParams reads it; only bad UTF-8 escapes fail here.
    decodeURIComponent(text.replace(/\+/g, " ").replace(/%(?![0-9a-fA-F]{2})/g, "%25"));
    return true;
  } catch {
    return false;
  }
};

/**
 * 422 naming each query parameter whose percent-escapes are not UTF-8 (`%ED%A0%80`, a lone surrogate):
 * URLSearchParams would quietly turn them into U+FFFD and the filter would match something else.
 */
export const checkQueryText = (rawQuery: string | undefined) => {
  if (!rawQuery || !rawQuery.includes("%")) return;
  const errors = rawQuery.split("&").flatMap((part) => {
    const [key, value = ""] = part.split(/=(.*)/s);
    if (decodes(key) && decodes(value)) return [];
    const field = new URLSearchParams(`${key}=`).keys().next().value ?? key;
    return [{ field, code: LONE_SURROGATE_PROBLEM.code, message: `"${field}" is not valid UTF-8 text once decoded (a lone surrogate or a broken escape)` }];
  });
  if (errors.length) throw validationFailed(errors);
};
