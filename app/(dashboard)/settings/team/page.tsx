import { Suspense } from "react";
import { TeamPage } from "@/components/team/team-page";

export const metadata = { title: "Team · Tabula" };

// The page reads ?workspace= (a workspace you belong to, instead of your own).
const TeamRoute = () => (
  <Suspense>
    <TeamPage />
  </Suspense>
);

export default TeamRoute;
