/** Wraps text in single quotes for a POSIX shell; an embedded `'` becomes `'\''`. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

// Keys and JWTs only hold these characters; anything else falls back to single quotes.
const SAFE_IN_DOUBLE_QUOTES = /^[\w.~+/=<>-]*$/;

/** The `x-codeSamples` entry of one operation: a cURL command ready to paste. */
export const curlSample = (method: string, url: string, opts: { apiKey?: string; body?: unknown }) => {
  const key = opts.apiKey ?? "<API_KEY>";
  const auth = SAFE_IN_DOUBLE_QUOTES.test(key) ? `"Authorization: Bearer ${key}"` : shellQuote(`Authorization: Bearer ${key}`);
  const lines = [`curl -X ${method.toUpperCase()} ${shellQuote(url)}`, `-H ${auth}`];
  if (opts.body !== undefined) {
    lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(opts.body))}`);
  }
  return [{ lang: "curl", label: "cURL", source: lines.join(" \\\n  ") }];
};
