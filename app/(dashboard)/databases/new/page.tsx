import { Suspense } from "react";
import { NewDatabaseForm } from "@/components/databases/new-database-form";

export const metadata = { title: "New database · Tabula" };

// The form reads ?workspace= (the workspace to create it in).
const NewDatabasePage = () => (
  <Suspense>
    <NewDatabaseForm />
  </Suspense>
);

export default NewDatabasePage;
