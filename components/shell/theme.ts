// Light, dark or the system's setting, remembered in localStorage. THEME_SCRIPT runs in <head> before the first
// paint (no flash); applyTheme does the same after a change in the toggle.

export type ThemeChoice = "light" | "dark" | "system";

export const THEME_STORAGE_KEY = "tabula-theme";

const isDark = (choice: string | null) =>
  choice === "dark" || (choice !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);

export const readTheme = (): ThemeChoice => {
  const stored = typeof window === "undefined" ? null : window.localStorage.getItem(THEME_STORAGE_KEY);
  return stored === "light" || stored === "dark" ? stored : "system";
};

export const applyTheme = (choice: ThemeChoice) => {
  if (choice === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
  else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  document.documentElement.classList.toggle("dark", isDark(choice));
  window.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: choice }));
};

/** Fired on window after a change, so every toggle on the page shows the same choice. */
export const THEME_EVENT = "tabula-theme-change";

export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;
