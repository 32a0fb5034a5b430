import { Suspense } from "react";
import { ActivityPage } from "@/components/audit/activity-page";

export const metadata = { title: "Activity · Tabula" };

// The page reads ?workspace= (a workspace where you are an admin, instead of your own).
const ActivityRoute = () => (
  <Suspense>
    <ActivityPage />
  </Suspense>
);

export default ActivityRoute;
