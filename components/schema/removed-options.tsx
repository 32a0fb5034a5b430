"use client";
import { ApiRequestError } from "../api/api-error";
import { SelectInput } from "../ui/field";

export type OptionInUse = { option: string; rows: number };

/** Select values: `opt:<name>` for an option, NULL apart, so no option text can be taken for NULL. */
const NULL_CHOICE = "null";
const optionChoice = (o: string) => `opt:${o}`;

/** The removed options rows still hold, from the API's 422 (`options_in_use`); empty for any other error. */
export const optionsInUse = (error: unknown): OptionInUse[] =>
  error instanceof ApiRequestError && Array.isArray(error.extra.options_in_use) ? (error.extra.options_in_use as OptionInUse[]) : [];

/** The PATCH's `rename` entries for the choices made: an option, or null. */
export const chosenRenames = (choices: Record<string, string>): Record<string, string | null> =>
  Object.fromEntries(Object.entries(choices).filter(([, c]) => c).map(([old, c]) => [old, c === NULL_CHOICE ? null : c.slice(4)]));

type Props = { inUse: OptionInUse[]; options: string[]; nullable: boolean; choices: Record<string, string>; onChoose: (option: string, choice: string) => void };

/** Rows holding removed options, counted by the API before anything changed: the user says what they become. */
export const RemovedOptions = ({ inUse, options, nullable, choices, onChoose }: Props) => (
  <div className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
    <div role="alert">
      {inUse.map(({ option, rows }) => (
        <p key={option}>
          {rows} {rows === 1 ? "row holds" : "rows hold"} &quot;{option}&quot;, which this change removes.
        </p>
      ))}
      <p>Nothing has changed yet. Choose what those rows become, then save again (or use Rename option instead).</p>
    </div>
    {inUse.map(({ option }) => (
      <div key={option} className="flex flex-wrap items-center gap-2">
        <label htmlFor={`in-use-${option}`} className="text-xs font-medium">
          Rows holding {option} become
        </label>
        <SelectInput id={`in-use-${option}`} className="w-auto" value={choices[option] ?? ""} onChange={(e) => onChoose(option, e.target.value)}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o} value={optionChoice(o)}>
              {o}
            </option>
          ))}
          {nullable && <option value={NULL_CHOICE}>NULL (empty)</option>}
        </SelectInput>
      </div>
    ))}
  </div>
);
