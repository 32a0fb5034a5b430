// Three sample rows per planned table, deterministic, each value valid for its column: a template's own
// sample value where it fits, else one made from the column's name and type. A reference holds the 1-based
// position of a seed row of its target table (the plan format's convention; apply maps it to the row's id).
import { PEOPLE, type PlannedTable } from "./offline-tables";
import type { PlanColumn } from "./plan";

const SEED_ROWS = 3;

const NAMES = ["Ada Lovelace", "Grace Hopper", "Alan Turing"];
const SAMPLES: Record<string, string[]> = {
  species: ["Dog", "Cat", "Rabbit"],
  breed: ["Labrador", "Siamese", "Lionhead"],
  city: ["Lisbon", "Oslo", "Austin"],
  country: ["Portugal", "Norway", "United States"],
  address: ["12 Main Street", "4 Harbour Road", "88 Elm Grove"],
  color: ["Red", "Blue", "Green"],
  colour: ["Red", "Blue", "Green"],
  make: ["Toyota", "Ford", "Volvo"],
  model: ["Corolla", "Transit", "XC40"],
  brand: ["Acme", "Globex", "Initech"],
  genre: ["Drama", "Comedy", "Documentary"],
  phone: ["+1 555 0100 001", "+1 555 0100 002", "+1 555 0100 003"],
};
const DATES = ["2025-03-03", "2025-03-10", "2025-03-17"];
const DECIMALS = [19.9, 34.5, 52];
const COORDINATES = [38.722252, 59.913868, 30.267153];

const words = (name: string) => name.replace(/_/g, " ");
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ".").replace(/^\.|\.$/g, "");

/** A template's value for the column, when it is valid for the column as planned here. */
const fits = (column: PlanColumn, value: unknown) => {
  if (value === undefined || value === null || column.type === "reference") return false;
  if (column.type === "dropdown") return (column.options as string[]).includes(value as string);
  if (column.type === "varchar") return typeof value === "string" && value.length <= Number(column.length ?? 255);
  if (column.type === "decimal") return typeof value === "number" && Math.abs(value) < 10 ** (Number(column.precision) - Number(column.scale));
  return ["text", "int", "boolean", "date", "datetime"].includes(String(column.type));
};

const intFor = (name: string, i: number) => {
  if (/year/.test(name)) return 2021 + i;
  if (/odometer|mileage/.test(name)) return [12000, 15500, 20100][i] + (/end|finish|to/.test(name) ? 320 : 0);
  if (/age/.test(name)) return [34, 41, 27][i];
  if (/minute|duration/.test(name)) return [30, 45, 60][i];
  return [12, 25, 40][i];
};

type Context = { table: PlannedTable; label: string; person: boolean };

const valueFor = (column: PlanColumn, i: number, { table, label, person }: Context): unknown => {
  const name = String(column.name);
  const sample = table.sample?.[i]?.[name];
  if (fits(column, sample)) return sample;
  const n = i + 1;
  switch (column.type) {
    case "reference":
      // A link table pairs rows (1,1), (2,1), (3,2): no pair twice.
      return table.entity || column !== table.columns[1] ? n : [1, 1, 2][i];
    case "dropdown":
      return (column.options as string[])[i % (column.options as string[]).length];
    case "boolean":
      return i % 2 === 0;
    case "date":
      return DATES[i];
    case "datetime":
      return `${DATES[i]}T09:30:00Z`;
    case "int":
    case "bigint":
      return intFor(name, i);
    case "decimal":
    case "float":
      return /latitude|longitude|lat|lng/.test(name) ? COORDINATES[i] : DECIMALS[i];
    case "text":
      return `${capitalize(words(name))} for ${label} ${n}.`;
    case "file":
      return undefined; // files are uploaded, not seeded
    default: {
      let value: string;
      if (name === "email" || name.endsWith("_email")) value = `${person ? slug(NAMES[i]) : `${slug(label)}${n}`}@example.com`;
      else if ((name === "name" || name === "full_name") && person) value = NAMES[i];
      else if (name === "first_name" || name === "last_name") value = NAMES[i].split(" ")[name === "first_name" ? 0 : 1];
      else if (/url|website|link|photo|image|avatar/.test(name)) value = `https://example.com/${slug(label)}/${n}`;
      else if (SAMPLES[name.split("_").pop()!]) value = SAMPLES[name.split("_").pop()!][i];
      else if (name === "name" || name === "title") value = `${capitalize(label)} ${n}`;
      else value = `${capitalize(words(name))} ${n}`;
      return value.slice(0, Number(column.length ?? 255));
    }
  }
};

/** The seed rows of every planned table, keyed by table name. */
export const seedRows = (tables: PlannedTable[]): Record<string, Record<string, unknown>[]> => {
  return Object.fromEntries(
    tables.map((table) => {
      const label = table.entity?.label ?? table.name.replace(/_/g, " ");
      const person = PEOPLE.has(label.split(" ").pop()!);
      const rows = Array.from({ length: SEED_ROWS }, (_, i) =>
        Object.fromEntries(table.columns.map((c) => [c.name, valueFor(c, i, { table, label, person })]).filter(([, v]) => v !== undefined)),
      );
      return [table.name, rows];
    }),
  );
};
