import { PlansPage } from "@/components/plans/plans-page";

export const metadata = { title: "Plans · Tabula" };

export default PlansPage;
