// Types for openapi-for-swagger.js (plain JavaScript so the public docs page can load the very same file).

/** A copy of an OpenAPI 3.1 document that Swagger UI reads with its faster OpenAPI 3.0 resolver. */
export declare function openApiForSwagger<T extends object>(doc: T): T;
