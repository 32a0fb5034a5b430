// Types for fold-column-filters.js (plain JavaScript so the public docs page can load the very same file).

/** The Swagger UI plugin that folds a list operation's per-column filters behind one toggle. */
export declare function foldColumnFilters(): object;
