/**
 * The one spelling of a path every router and limiter sees: `%2e`/`%2E` read as dots, `//` collapsed, `.`
 * segments dropped and `..` applied. Null (answer 404) for what has no safe spelling: a segment that ends in
 * a dot (`login.`), a `..` above the root, or an escaped slash or backslash that would split a segment.
 */
const ALIASABLE = /[%\\]|\/\/|\/\.|\.(\/|$)/;

export const canonicalPath = (pathname: string): string | null => {
  // Most paths are already canonical: no escape, backslash, empty segment, dot segment or segment ending in a dot.
  if (pathname.startsWith("/") && !ALIASABLE.test(pathname)) return pathname;
  if (/%(2f|5c)/i.test(pathname) || pathname.includes("\\")) return null;
  const segments = pathname.replace(/%2e/gi, ".").split("/");
  const out: string[] = [];
  for (const segment of segments.slice(1)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (!out.length) return null;
      out.pop();
      continue;
    }
    if (segment.endsWith(".")) return null;
    out.push(segment);
  }
  const trailing = pathname.length > 1 && /\/(\.)?$/.test(pathname.replace(/%2e/gi, ".")) && out.length > 0;
  return `/${out.join("/")}${trailing ? "/" : ""}`;
};

/** A request target (path and query) made canonical; null when its path has no safe spelling. */
export const canonicalTarget = (url: string): string | null => {
  const q = url.indexOf("?");
  const path = canonicalPath(q === -1 ? url : url.slice(0, q));
  return path === null ? null : q === -1 ? path : path + url.slice(q);
};
