"use client";
import { type RefObject, useEffect, useRef } from "react";

/**
 * Drives a native <dialog> as a modal from `open` (showModal: focus trap, Escape, backdrop). What had focus
 * when it opened gets it back when it closes, so keyboard and screen-reader users continue where they were;
 * `returnTo` is used when that element is gone.
 */
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export const useModal = (open: boolean, returnTo?: RefObject<HTMLElement | null>) => {
  const ref = useRef<HTMLDialogElement>(null);
  // Declared before the showModal effect, so it sees the opener before focus moves into the dialog.
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After the closing render: the opener may have been re-rendered in place.
      requestAnimationFrame(() => (opener?.isConnected ? opener : returnTo?.current)?.focus());
    };
  }, [open, returnTo]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
    if (!open) return;
    // A modal <dialog> lets Tab leave for the browser's own controls; keep it cycling inside instead.
    const trap = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const items = [...el.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((n) => n.offsetParent !== null || n === document.activeElement);
      if (items.length === 0) return;
      const [first, last] = [items[0], items[items.length - 1]];
      if (!e.shiftKey && document.activeElement === last) (e.preventDefault(), first.focus());
      else if (e.shiftKey && document.activeElement === first) (e.preventDefault(), last.focus());
    };
    el.addEventListener("keydown", trap);
    return () => el.removeEventListener("keydown", trap);
  }, [open]);
  return ref;
};
