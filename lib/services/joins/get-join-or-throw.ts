import { notFound } from "../../errors";
import type { DatabaseSchema, JoinDef } from "../../schema/types";

export const getJoinOrThrow = (schema: DatabaseSchema, name: string): JoinDef => {
  const join = schema.joins?.get(name);
  if (!join) throw notFound(`Join "${name}" was not found in database "${schema.instance}".`);
  return join;
};
