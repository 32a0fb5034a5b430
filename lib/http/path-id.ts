import { notFound } from "../errors";

const ID_RE = /^[1-9]\d{0,15}$/;

/** A path segment that must be a row id: the id, or the 404 the caller words (an id that cannot exist is not found). */
export const pathId = (raw: string, message: string): number => {
  if (!ID_RE.test(raw)) throw notFound(message);
  return Number(raw);
};
