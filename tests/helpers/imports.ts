/** Every module specifier a file imports: static, type-only, re-exports, dynamic import() and require(). */
export const importsOf = (source: string) => {
  const specifiers = new Set<string>();
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) specifiers.add(m[1]);
  return [...specifiers];
};
