"use client";
import { type RefObject, useEffect, useRef } from "react";

/**
 * Drives a native <dialog> as a modal from `open` (showModal: focus trap, Escape, backdrop). What had focus
 * when it opened gets it back when it closes, so keyboard and screen-reader users continue where they were;
 * `returnTo` is used when that element is gone.
 */
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
  }, [open]);
  return ref;
};
