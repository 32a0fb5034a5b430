// Light, dark or the system's setting, remembered in localStorage. THEME_SCRIPT runs in <head> of every page before
// the first paint (no flash), and follows a change of the system's setting while no choice is stored, whether or not
// the page shows a toggle; applyTheme does the same after a change in the toggle.

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

const KEY = JSON.stringify(THEME_STORAGE_KEY);
export const THEME_SCRIPT = [
  `(function(){try{var m=matchMedia("(prefers-color-scheme: dark)"),t=localStorage.getItem(${KEY});`,
  `if(t==="dark"||(t!=="light"&&m.matches))document.documentElement.classList.add("dark");`,
  `m.addEventListener("change",function(e){var s=localStorage.getItem(${KEY});if(s!=="light"&&s!=="dark")document.documentElement.classList.toggle("dark",e.matches)})}catch(e){}})()`,
].join("");
