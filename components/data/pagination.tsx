import { Button } from "../ui/button";
import { SelectInput } from "../ui/field";
import { PAGE_SIZES } from "./build-query";

type Props = { offset: number; limit: number; shown: number; total: number | null; onChange: (page: { offset: number; limit: number }) => void };

/** "Showing 1–25 of 120", page size, previous and next (`_offset` / `_limit`). */
export const Pagination = ({ offset, limit, shown, total, onChange }: Props) => {
  const hasNext = total === null ? shown === limit : offset + shown < total;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p>
        {shown === 0 ? "No records" : `Showing ${offset + 1}–${offset + shown}`}
        {total !== null && ` of ${total}`}
      </p>
      <div className="flex items-center gap-2">
        <label className="flex items-center gap-2 whitespace-nowrap">
          Rows per page
          <SelectInput className="w-20" value={limit} onChange={(e) => onChange({ offset: 0, limit: Number(e.target.value) })}>
            {PAGE_SIZES.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </SelectInput>
        </label>
        <Button size="sm" disabled={offset === 0} onClick={() => onChange({ offset: Math.max(0, offset - limit), limit })}>
          Previous
        </Button>
        <Button size="sm" disabled={!hasNext} onClick={() => onChange({ offset: offset + limit, limit })}>
          Next
        </Button>
      </div>
    </div>
  );
};
