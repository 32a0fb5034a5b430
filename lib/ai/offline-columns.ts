// From an attribute's words to a column the management API takes: the type is inferred from the words
// (price → decimal, "due"/"… date" → date, "… at" → datetime, counts → int, email → unique varchar,
// status/type/priority → dropdown with the sentence's options or sensible defaults, photo/attachment → file).
import { identifier } from "./offline-words";
import type { PlanColumn } from "./plan";

const set = (words: string) => new Set(words.split(" "));

const MONEY = set("price prices cost costs amount total fee fees salary salaries wage wages budget balance revenue deposit tip tax discount income expense spend pay rent rate subtotal premium payout fare fares");
const DECIMAL = set("area pace weight height width depth distance temperature volume percentage percent km kilometers miles liters litres kg area fuel hours");
const COORDINATE = set("latitude longitude lat lng");
const COUNT = set("minute minutes ranking count quantity qty capacity age year odometer mileage minutes duration stock seats rooms bedrooms bathrooms floors pages calories points score rank reps laps goals servings rating stars level floor visits attempts copies units");
const DATE = set("date dates deadline birthday dob due");
const DATETIME = set("time timestamp datetime at");
const BOOLEAN = set("active paid available verified completed done archived published approved featured enabled flag vegetarian vegan returned refunded resolved confirmed");
const DURATIONS = set("cooking prep preparation travel wait waiting reading running flight screen response lead baking");
const TEXT = set("description notes note bio body content comment comments summary details instructions message text review feedback diagnosis symptoms treatment remarks");
const URL = set("url website link homepage");
/** Uploaded files: images (accept image/*), and any file; plurals hold several. */
const IMAGE = set("photo photos image images picture pictures avatar logo cover thumbnail portrait headshot");
const ATTACHMENT = set("attachment attachments file files document documents scan scans receipt receipts resume cv contract");
const PHONE = set("phone mobile telephone fax");
const SHORT = set("code sku isbn vin plate number zip postcode postal initials currency");

/** Dropdowns named by these words get these options when the sentence lists none. */
const DEFAULT_OPTIONS: Record<string, string[]> = {
  status: ["pending", "active", "done", "cancelled"],
  state: ["new", "in progress", "closed"],
  priority: ["low", "medium", "high"],
  type: ["standard", "special", "other"],
  kind: ["standard", "special", "other"],
  category: ["general", "featured", "other"],
  stage: ["new", "qualified", "won", "lost"],
  tier: ["basic", "standard", "premium"],
  role: ["member", "admin"],
  level: ["beginner", "intermediate", "advanced"],
  gender: ["female", "male", "other"],
  size: ["small", "medium", "large"],
};

/** Words that are columns of something rather than things to keep a table of. */
export const isAttributeWord = (word: string) =>
  [MONEY, DECIMAL, COORDINATE, COUNT, DATE, DATETIME, BOOLEAN, TEXT, URL, IMAGE, ATTACHMENT, PHONE].some((s) => s.has(word)) ||
  word in DEFAULT_OPTIONS || ["email", "name", "title", "address", "city", "country", "species", "breed", "color", "colour", "model", "make", "brand", "genre"].includes(word);

/** Columns every table has already, or that the data API keeps for itself. */
const AUTOMATIC = new Set(["id", "created_at", "updated_at"]);

/** The column for an attribute, or undefined when its words make no usable name ("created at" exists already). */
export const columnFor = (words: string[], options?: string[]): PlanColumn | undefined => {
  // "price per gram" is typed as a price.
  const per = words.indexOf("per");
  const head = words[per > 0 ? per - 1 : words.length - 1];
  let name = identifier(words);
  if (head === "due" && words.length === 1) name = "due_date";
  if (!name || AUTOMATIC.has(name)) return undefined;
  const dropdownOptions = options?.length ? options : DEFAULT_OPTIONS[head];
  if (dropdownOptions && (options?.length || words.length <= 2)) {
    return { name, type: "dropdown", options: dropdownOptions, nullable: false, default: dropdownOptions[0] };
  }
  if (head === "email") return { name, type: "varchar", length: 255, nullable: false, unique: true };
  if (words[0] === "is" || words[0] === "has" || BOOLEAN.has(head)) return { name, type: "boolean", nullable: false, default: false };
  if (MONEY.has(head)) return { name, type: "decimal", precision: 10, scale: 2 };
  if (COORDINATE.has(head)) return { name, type: "decimal", precision: 9, scale: 6 };
  if (DECIMAL.has(head)) return { name, type: "decimal", precision: 10, scale: 2 };
  if (DATE.has(head) || head.endsWith("day")) return { name, type: "date" };
  // "cooking time" is a duration in minutes; "start time" is a moment.
  if (head === "time" && words.length > 1 && DURATIONS.has(words[0])) return { name, type: "int" };
  if (DATETIME.has(head)) return { name, type: "datetime" };
  if (COUNT.has(head)) return { name, type: "int" };
  if (TEXT.has(head)) return { name, type: "text" };
  if (URL.has(head) || (IMAGE.has(head) && words.some((w) => URL.has(w)))) return { name, type: "varchar", length: 255 };
  if (IMAGE.has(head)) return { name, type: "file", accept: ["image/*"], ...(head.endsWith("s") ? { multiple: true } : {}) };
  if (ATTACHMENT.has(head)) return { name, type: "file", ...(head.endsWith("s") ? { multiple: true } : {}) };
  if (PHONE.has(head) || SHORT.has(head)) return { name, type: "varchar", length: 40 };
  return { name, type: "varchar", length: head === "name" || head === "title" ? 150 : 200 };
};
