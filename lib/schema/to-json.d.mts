import type { ColumnType } from "./types";

export declare const TO_JSON: Record<ColumnType, (v: unknown) => unknown>;
