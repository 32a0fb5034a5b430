"use client";
import { useEffect, useState } from "react";
import { applyTheme, readTheme, THEME_EVENT, type ThemeChoice } from "./theme";

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

/** Light / Dark / System; "System" follows the operating system's setting, also when it changes (THEME_SCRIPT). */
export const ThemeToggle = () => {
  const [choice, setChoice] = useState<ThemeChoice>("system");
  useEffect(() => {
    setChoice(readTheme());
    const sync = (e: Event) => setChoice((e as CustomEvent<ThemeChoice>).detail);
    window.addEventListener(THEME_EVENT, sync);
    return () => window.removeEventListener(THEME_EVENT, sync);
  }, []);
  const pick = (next: ThemeChoice) => {
    setChoice(next);
    applyTheme(next);
  };
  return (
    <div role="group" aria-label="Theme" className="flex rounded-md border border-slate-200 p-0.5 text-xs">
      {CHOICES.map((c) => (
        <button
          key={c.value}
          type="button"
          aria-pressed={choice === c.value}
          onClick={() => pick(c.value)}
          className={`flex-1 rounded px-2 py-1 ${choice === c.value ? "bg-slate-100 font-medium text-slate-900" : "text-slate-600 hover:text-slate-900"}`}
        >
          {c.label}
        </button>
      ))}
    </div>
  );
};
