import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const EXTENSIONS = [".ts", ".tsx", ".mjs", ".js"];

/** Every module specifier a file imports: static, type-only, re-exports, dynamic import() and require(). */
export const importsOf = (source: string) => {
  const specifiers = new Set<string>();
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) specifiers.add(m[1]);
  return [...specifiers];
};

const isFile = (file: string) => fs.existsSync(file) && fs.statSync(file).isFile();

/** The file a relative or `@/` specifier names (with or without extension, or a folder's index), else undefined. */
export const resolveSpecifier = (from: string, specifier: string): string | undefined => {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  // `./x.js` may name `x.ts` (TypeScript's ESM spelling).
  if (/\.(m?js)$/.test(base)) candidates.push(...EXTENSIONS.map((e) => base.replace(/\.m?js$/, e)));
  return candidates.find(isFile);
};
