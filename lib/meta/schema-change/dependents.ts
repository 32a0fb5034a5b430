import { authDependent } from "../../services/auth/auth-dependent";
import { joinsDependent } from "../../services/joins/joins-dependent";
import { policiesDependent } from "../../services/policies/policies-dependent";
import { referencesDependent } from "../../services/tables/references-dependent";
import type { SchemaDependent } from "./schema-change";
import { hooksDependent } from "../../hooks/hooks-dependent";
import { indexesDependent } from "../../services/indexes/indexes-dependent";

/**
 * Everything that must follow or may veto a schema change, asked in this order (the first refusal wins).
 * A new kind of dependent (pre hooks, indexes...) is one more entry here.
 */
export const SCHEMA_DEPENDENTS: readonly SchemaDependent[] = [referencesDependent, joinsDependent, policiesDependent, authDependent, hooksDependent, indexesDependent];
