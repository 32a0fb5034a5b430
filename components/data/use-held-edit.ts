"use client";
import { useEffect, useState } from "react";
import type { DataRecord } from "../api/types";

/** The cell being edited: a record and a column, never a position on the page. */
export type EditTarget = { id: number; column: string };

/** What became of an edited record that left the page: being looked up, deleted, or still there (moved away). */
export type Departure = "checking" | "deleted" | "moved";

type Held = { record: DataRecord; index: number };

/**
 * The grid's editing state, bound to a record id. When a reload (a live change by someone else) takes the
 * edited record off the page, its last copy stays where it was, so the editor keeps its typing, and `exists`
 * tells whether the record was deleted or only moved.
 */
export const useHeldEdit = (rows: DataRecord[], exists?: (id: number) => Promise<boolean>) => {
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const [held, setHeld] = useState<Held | null>(null);
  const [departure, setDeparture] = useState<{ id: number; what: Departure } | null>(null);
  const index = editing ? rows.findIndex((r) => r.id === editing.id) : -1;
  // Kept while rendering, not in an effect: the render where the row disappears must already show the copy.
  if (index >= 0 && (held?.record !== rows[index] || held.index !== index)) setHeld({ record: rows[index], index });
  const goneId = editing && index < 0 && held?.record.id === editing.id ? editing.id : null;

  useEffect(() => {
    if (goneId === null) return;
    let current = true;
    (exists ? exists(goneId) : Promise.resolve(false)).then(
      (found) => current && setDeparture({ id: goneId, what: found ? "moved" : "deleted" }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [goneId, exists]);

  const shown = goneId !== null && held ? [...rows.slice(0, held.index), held.record, ...rows.slice(held.index)] : rows;
  const what: Departure | null = goneId === null ? null : departure?.id === goneId ? departure.what : "checking";
  return { editing, setEditing, rows: shown, departure: what };
};
