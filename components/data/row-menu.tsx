"use client";
import { usePopover } from "../ui/use-popover";

type Props = { recordId: number; onEdit: () => void; onDelete: () => void };

/** One narrow button per row opening Edit and Delete, so row actions take one column, not two. */
export const RowMenu = ({ recordId, onEdit, onDelete }: Props) => {
  const { open, setOpen, root } = usePopover((el) => el.querySelector<HTMLElement>("[role=menuitem]")?.focus());
  const choose = (fn: () => void) => {
    setOpen(false);
    fn();
  };
  const item = "block w-full px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none";
  return (
    <div ref={root} className="relative inline-block" onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setOpen(false))}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Actions for record ${recordId}`}
        onClick={() => setOpen((o) => !o)}
        className="rounded px-1.5 text-base leading-6 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        ⋯
      </button>
      {open && (
        <div role="menu" aria-label={`Record ${recordId}`} className="absolute left-0 z-20 mt-1 w-32 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          <button type="button" role="menuitem" className={`${item} text-slate-800`} onClick={() => choose(onEdit)}>
            Edit
          </button>
          <button type="button" role="menuitem" className={`${item} text-red-700`} onClick={() => choose(onDelete)}>
            Delete
          </button>
        </div>
      )}
    </div>
  );
};
