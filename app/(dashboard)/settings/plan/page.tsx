import { PlanUsagePage } from "@/components/plans/plan-usage-page";

export const metadata = { title: "Plan & usage · Tabula" };

export default PlanUsagePage;
