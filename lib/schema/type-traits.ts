// What a column's type means, read from its entry in TYPE_SPECS (column-types.ts): code outside that table asks
// these, never the type's name, so a new type is one entry there plus whatever is genuinely new about it.
import { TYPE_PARAMS, TYPE_SPECS, type TypeParam } from "./column-types";
import { COLUMN_TYPES, type ColumnType } from "./types";

export { TYPE_PARAMS, type TypeParam };

type Typed = ColumnType | { type: ColumnType };

const specOf = (t: Typed) => TYPE_SPECS[typeof t === "string" ? t : t.type];

/** Hashed (bcrypt) on each write; the hash reaches no JWT user, log, hook, filter, policy or dashboard cell. */
export const isSecret = (t: Typed) => specOf(t).secret === true;
/** Holds another row's id (the column's `references` names the table). */
export const isReference = (t: Typed) => specOf(t).reference === true;
/** Plain text (varchar, text): searchable, a login name, a CSV cell as is. */
export const isTextual = (t: Typed) => specOf(t).textual === true;
/** A quantity: sums and averages apply. */
export const isNumeric = (t: Typed) => specOf(t).numeric === true;
/** Holds a JSON document, written and shown as JSON text. */
export const isJson = (t: Typed) => specOf(t).json === true;
/** Holds uploaded files (the value names stored objects that follow the row). */
export const isFile = (t: Typed) => specOf(t).file === true;
/** Compares and sorts in SQL; such a value also fits on one line, so it may stand for its row as a label. */
export const isOrderable = (t: Typed) => specOf(t).sort !== "none";

/** What the column holds in the builder's words ("Yes/No", "reference to authors"). */
export const typeInWords = (c: { type: ColumnType; references?: string; multiple?: boolean }) => specOf(c).words(c);
/** How one of the column's choices reads in a form ("Yes" for true); the value itself otherwise. */
export const choiceInWords = (t: Typed, value: string) => specOf(t).choiceWords?.[value] ?? value;

/** The fixed values an input offers for the column, as text; undefined for free input. */
export const choicesOf = (c: { type: ColumnType; options?: string[] }) => specOf(c).choices?.(c);
/** Decimal places the column's values are written out with; undefined when they are written as they are. */
export const scaleOf = (c: { type: ColumnType; scale?: number }) => specOf(c).scale?.(c);
/** May hold a user's id (`auth.id` default, a policy's owner column). */
export const holdsUserId = (t: Typed) => specOf(t).userId === true;

/** Whether the type takes a column property such as `length` (others refuse it), and the types that do. */
export const takesParam = (t: Typed, param: TypeParam) => specOf(t).params?.includes(param) === true;
export const typesTaking = (param: TypeParam): ColumnType[] => COLUMN_TYPES.filter((t) => takesParam(t, param));
/** Types that may carry a UNIQUE constraint, and a plain index. */
export const UNIQUE_TYPES: readonly ColumnType[] = COLUMN_TYPES.filter((t) => TYPE_SPECS[t].uniqueAllowed);
export const INDEX_TYPES: readonly ColumnType[] = COLUMN_TYPES.filter((t) => TYPE_SPECS[t].indexable);
