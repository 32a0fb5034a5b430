"use client";
import { ApiRequestError } from "../api/api-error";
import { Button } from "../ui/button";

/** How many rows a refused lossy change found that do not fit (the API's `misfit_rows`); 0 for any other error. */
export const misfitRows = (error: unknown) => (error instanceof ApiRequestError && typeof error.extra.misfit_rows === "number" ? error.extra.misfit_rows : 0);

type Props = { rows: number; nullable: boolean; pending: boolean; onConvert: () => void };

/** The explicit way through a lossy change: convert, and set the rows that do not fit to NULL (`misfits: "null"`). */
export const ConvertAnyway = ({ rows, nullable, pending, onConvert }: Props) => {
  const these = rows === 1 ? "this row" : `these ${rows} rows`;
  return (
    <section className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" aria-label="Lossy change">
      <p>
        {rows === 1 ? "1 row holds a value" : `${rows} rows hold values`} the new definition cannot keep. Nothing has changed yet: change the definition back, or convert anyway and
        lose those values.
      </p>
      {nullable ? (
        <Button size="sm" variant="primary" pending={pending} onClick={onConvert}>
          Convert anyway, set {these} to NULL
        </Button>
      ) : (
        <p className="text-xs">To set {these} to NULL instead, tick Nullable first.</p>
      )}
    </section>
  );
};
