"use client";
import { useEffect, useState } from "react";
import { type JoinForm, previewJoin } from "../api/use-joins";

/** Previews `input` (debounced) whenever it changes; `undefined` input clears the preview. */
export const useJoinPreview = (instance: string, input: JoinForm | undefined, delayMs = 350) => {
  const [result, setResult] = useState<{ rows?: Record<string, unknown>[]; error?: unknown; pending: boolean }>({ pending: false });
  const key = input === undefined ? "" : JSON.stringify(input);
  useEffect(() => {
    if (!key) return setResult({ pending: false });
    let live = true;
    setResult((r) => ({ ...r, pending: true }));
    const timer = setTimeout(() => {
      previewJoin(instance, JSON.parse(key) as JoinForm).then(
        (p) => live && setResult({ rows: p.rows, pending: false }),
        (error) => live && setResult({ error, pending: false }),
      );
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [instance, key, delayMs]);
  return result;
};
