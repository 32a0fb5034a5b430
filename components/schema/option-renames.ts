import type { ColumnDraft } from "./column-draft";

/**
 * Renames an option in the draft: it keeps its place (or merges into an option already listed), and a saved
 * option's rows will follow it (`renames`, sent as the PATCH's `rename`). Renaming twice keeps one entry.
 */
export const renameOption = (draft: ColumnDraft, from: string, text: string): Partial<ColumnDraft> => {
  const to = text.trim();
  if (!to || to === from) return {};
  const options = draft.options.includes(to) ? draft.options.filter((o) => o !== from) : draft.options.map((o) => (o === from ? to : o));
  const renames = Object.fromEntries(Object.entries(draft.renames).map(([old, next]) => [old, next === from ? to : next]));
  if (draft.savedOptions.includes(from) && !Object.hasOwn(draft.renames, from)) renames[from] = to;
  return { options, renames: Object.fromEntries(Object.entries(renames).filter(([old, next]) => old !== next)) };
};

/** A new option list: renames whose new name was removed are dropped (their rows then count as removed). */
export const setOptions = (draft: ColumnDraft, options: string[]): Partial<ColumnDraft> => ({
  options,
  renames: Object.fromEntries(Object.entries(draft.renames).filter(([, next]) => options.includes(next))),
});
