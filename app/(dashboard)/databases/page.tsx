import { Suspense } from "react";
import { DatabaseList } from "@/components/databases/database-list";

export const metadata = { title: "Databases · Tabula" };

// The list reads ?scope=shared and its filters from the URL.
const DatabasesPage = () => (
  <Suspense>
    <DatabaseList />
  </Suspense>
);

export default DatabasesPage;
