// The API's field errors as people read them: from the error's code and field, a sentence naming the field in
// words and saying what to do. The API's own text stays the fallback for codes this table does not know.
import type { FieldError } from "./field-error";

/** `tables[0].columns[1].type` → `table 1, column 2, type`; `columns` → `columns`. */
export const fieldLabel = (field: string) =>
  field
    .replace(/(\w+?)s?\[(\d+)\]/g, (_m, name: string, i: string) => `${name.replace(/s$/, "")} ${Number(i) + 1}`)
    .replace(/\./g, ", ")
    .replace(/_/g, " ");

/** Codes whose messages the API already writes for people, naming the thing and the fix (the SQL console's). */
const WRITTEN_FOR_PEOPLE = new Set(["not_a_select", "multiple_statements", "refused_keyword", "other_schema", "variables", "time_limit", "sql_error", "executable_comment", "empty", "syntax"]);

const number = (text: string) => /(\d[\d,.]*)/.exec(text)?.[1];

/** Parser wording ("Unexpected token: EOF") → what is wrong with the expression and where. */
const expressionProblem = (message: string, position?: number) => {
  const where = position ? ` (at character ${position})` : "";
  if (/EOF|end of (input|expression)/i.test(message)) return `ends too early${where}: finish it, e.g. a value after the last operator or a closing bracket.`;
  const token = /Unexpected (?:token|character)[: ]+\s*(\S+)/i.exec(message)?.[1];
  if (token) return `has "${token.replace(/^['"]|['"]$/g, "")}" where it cannot be${where}: check the operators and quotes around it.`;
  return `${message.replace(/^position \d+: /, "")}${where}.`;
};

/**
 * One field error as a sentence: the field in words, then the problem and what to do. `atField`: shown under
 * its own field, where a code this table does not know keeps the API's sentence without the field again.
 */
export const humanFieldError = (e: FieldError, atField = false): string => {
  const label = fieldLabel(e.field);
  const text = e.message.startsWith(`${e.field} `) ? e.message.slice(e.field.length + 1) : e.message;
  const n = number(text);
  // The join SQL mode's refusals (`sql_*`) name the construct and its line and column already.
  if (WRITTEN_FOR_PEOPLE.has(e.code) || e.code.startsWith("sql_")) return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`.replace(/\.\.$/, ".");
  switch (e.code) {
    case "required":
      return `Fill in ${label}: it is required.`;
    case "too_short":
      return `${label} is too short: use at least ${n} characters.`;
    case "too_long":
      return `${label} is too long: ${text.replace(/^must be /, "keep it ")}.`;
    case "out_of_range":
      if (/items?$/.test(text)) return /at least/.test(text) ? `Choose at least ${n} ${label}.` : `Choose at most ${n} ${label}.`;
      return `${label} ${text}.`;
    case "unknown_property":
      return `${label} is not something this form can set; remove it.`;
    case "invalid_expression":
    case "invalid_policy":
      return `The ${label} expression ${expressionProblem(text, e.position)}`;
    default:
      if (atField) return e.message;
      return `${label.charAt(0).toUpperCase()}${label.slice(1)}: ${text.replace(/^must /, "it must ").replace(/^a reference column needs "references": the name of the table it points to$/, "choose the table this reference points to")}.`.replace(/\.\.$/, ".");
  }
};
