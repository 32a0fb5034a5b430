import { BuildsPage } from "@/components/ai/builds-page";

export const metadata = { title: "AI builds · Tabula" };

export default BuildsPage;
