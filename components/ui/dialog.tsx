"use client";
import type { ReactNode } from "react";
import { useModal } from "./use-modal";

type Props = { open: boolean; onClose: () => void; title: string; description?: ReactNode; children: ReactNode; wide?: boolean | "grid" };

const WIDTHS = { narrow: "max-w-lg", wide: "max-w-3xl", grid: "max-w-5xl" };

/**
 * A modal over the page (native <dialog>: focus trap, Escape and the backdrop come with it). When it closes,
 * focus returns to the control that opened it.
 */
export const Dialog = ({ open, onClose, title, description, children, wide = false }: Props) => {
  const ref = useModal(open);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      aria-label={title}
      className={`m-auto w-[calc(100%-1.5rem)] rounded-xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/40 ${WIDTHS[wide === true ? "wide" : wide || "narrow"]}`}
    >
      {open && (
        <div className="max-h-[85vh] overflow-y-auto p-4 sm:p-6">
          <h2 className="text-base font-semibold">{title}</h2>
          {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
};

export const DialogActions = ({ children }: { children: ReactNode }) => <div className="mt-6 flex flex-wrap justify-end gap-2">{children}</div>;
