"use client";
import { useEffect, useRef, useState } from "react";

/**
 * A small popover's open state and its root element: a mousedown outside the root closes it. `onOpen` runs
 * each time it opens (e.g. to focus its first item).
 */
export const usePopover = (onOpen?: (root: HTMLDivElement) => void) => {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", close);
    if (root.current) onOpen?.(root.current);
    return () => document.removeEventListener("mousedown", close);
    // onOpen is read when the popover opens; a new function per render must not re-run the effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  return { open, setOpen, root };
};
