import { NewDatabaseForm } from "@/components/databases/new-database-form";

export const metadata = { title: "New database · Tabula" };

export default NewDatabaseForm;
