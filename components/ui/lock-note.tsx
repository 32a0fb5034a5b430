import { type Level, whyNot } from "../api/can";

/** A short line saying why the controls around it are disabled for your role. */
export const LockNote = ({ level, children }: { level: Level; children?: string }) => (
  <p role="note" className="mt-2 rounded-md bg-slate-100 px-2.5 py-1.5 text-xs text-slate-700">
    {whyNot(level)}
    {children && ` ${children}`}
  </p>
);
