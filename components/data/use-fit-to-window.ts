"use client";
import { type RefObject, useLayoutEffect } from "react";

const MIN_HEIGHT = 288;
const MARGIN = 16;

/**
 * Caps a scrolling box's height so that, with the page at its top, the box ends inside the window: its sideways
 * scrollbar is then on screen with the first rows, never only past the last one. Re-fitted when the page above it
 * changes height (the filter panel opening) and when the window resizes; never shorter than MIN_HEIGHT.
 */
export const useFitToWindow = (ref: RefObject<HTMLElement | null>) => {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      const height = `${Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - MARGIN))}px`;
      if (el.style.maxHeight !== height) el.style.maxHeight = height;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(document.body);
    window.addEventListener("resize", fit);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", fit);
    };
  }, [ref]);
};
