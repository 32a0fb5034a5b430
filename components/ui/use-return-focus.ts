"use client";
import { type RefObject, useEffect } from "react";

/**
 * While `open`, remembers what had focus when it opened; when it closes (or unmounts), focus goes back there,
 * so keyboard and screen-reader users continue where they were. `fallback` is used when the opener is gone.
 */
export const useReturnFocus = (open: boolean, fallback?: RefObject<HTMLElement | null>) => {
  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      // After the closing render: the opener may have been re-rendered in place.
      requestAnimationFrame(() => {
        const target = opener?.isConnected ? opener : fallback?.current;
        target?.focus();
      });
    };
  }, [open, fallback]);
};
