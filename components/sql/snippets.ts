// Saved SQL snippets live in this browser's localStorage, per database: they are notes for one person, so no
// server table holds them (docs/dashboard.md, "SQL").
export type Snippet = { name: string; sql: string };

const keyOf = (instance: string) => `tabula.sql-snippets.${instance}`;

export const loadSnippets = (instance: string): Snippet[] => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(instance)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((s): s is Snippet => typeof s?.name === "string" && typeof s?.sql === "string") : [];
  } catch {
    return [];
  }
};

export const storeSnippets = (instance: string, snippets: Snippet[]) => localStorage.setItem(keyOf(instance), JSON.stringify(snippets));

/** Saving under a name already used replaces that snippet. */
export const withSnippet = (snippets: Snippet[], snippet: Snippet) => [...snippets.filter((s) => s.name !== snippet.name), snippet].sort((a, b) => a.name.localeCompare(b.name));
