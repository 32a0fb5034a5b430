// Types for name-swagger-selects.js (plain JavaScript so the public docs page can load the very same file).

/** Names every select Swagger UI renders under `root`, now and on each re-render; returns the observer. */
export declare function nameSwaggerSelects(root: HTMLElement): MutationObserver;
