"use client";
import { usePopover } from "../ui/use-popover";

export type MoreAction = { label: string; onSelect: () => void; disabled?: boolean; title?: string };

/** The toolbar's less frequent actions (export, import, recently deleted) behind one button on a phone. */
export const MoreActions = ({ actions }: { actions: MoreAction[] }) => {
  const { open, setOpen, root } = usePopover((el) => el.querySelector<HTMLElement>("[role=menuitem]:not(:disabled)")?.focus());
  const item = "block w-full px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none disabled:cursor-not-allowed disabled:text-slate-500";
  return (
    <div ref={root} className="relative" onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setOpen(false))}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-8 items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        More <span aria-hidden>▾</span>
      </button>
      {open && (
        <div role="menu" aria-label="More actions" className="absolute left-0 z-30 mt-1 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          {actions.map((a) => (
            <button
              key={a.label}
              type="button"
              role="menuitem"
              disabled={a.disabled}
              title={a.title}
              className={item}
              onClick={() => {
                setOpen(false);
                a.onSelect();
              }}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
};
