// One problem in an API error body, apart from the error class (api-error.ts) that carries a list of them and
// the sentences (human-errors.ts) that api-error.ts uses to show them.
export type FieldError = { field: string; code: string; message: string; /** 1-based offset in the field's text (policies). */ position?: number };
