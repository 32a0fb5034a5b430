import { authDependent } from "./auth-dependent";
import { joinsDependent } from "./joins-dependent";
import { policiesDependent } from "./policies-dependent";
import { referencesDependent } from "./references-dependent";
import type { SchemaDependent } from "./schema-change";
import { hooksDependent } from "./hooks-dependent";
import { indexesDependent } from "./indexes-dependent";

/**
 * Everything that must follow or may veto a schema change, asked in this order (the first refusal wins).
 * A new kind of dependent (pre hooks, indexes...) is one more entry here.
 */
export const SCHEMA_DEPENDENTS: readonly SchemaDependent[] = [referencesDependent, joinsDependent, policiesDependent, authDependent, hooksDependent, indexesDependent];
