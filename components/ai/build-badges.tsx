import type { AiBuild } from "../api/types";
import { Badge } from "../ui/badge";

const STATUS_TONE = { running: "indigo", planned: "amber", applied: "green", failed: "slate" } as const;

export const StatusBadge = ({ status }: { status: AiBuild["status"] }) => <Badge tone={STATUS_TONE[status]}>{status}</Badge>;

/** Who planned it: the built-in offline planner, or the configured model by name. */
export const ModelBadge = ({ build }: { build: Pick<AiBuild, "offline" | "model"> }) =>
  build.offline ? <Badge tone="slate">offline planner</Badge> : <Badge tone="indigo">model {build.model}</Badge>;

const CREDIT_TEXT = {
  charged: "1 AI call charged",
  released: "AI call released (not charged)",
  none: "no charge",
} as const;

/** What the build cost: one AI call of the month's allowance or a credit, given back after a failure, or nothing offline. */
export const creditText = (build: Pick<AiBuild, "credit" | "offline" | "usage">) => {
  const tokens = build.usage?.total_tokens ? ` · ${build.usage.total_tokens.toLocaleString()} tokens` : "";
  return `${build.credit === "none" && build.offline ? "Free (offline)" : CREDIT_TEXT[build.credit]}${tokens}`;
};
