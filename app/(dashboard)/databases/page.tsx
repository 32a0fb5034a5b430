import { DatabaseList } from "@/components/databases/database-list";

export const metadata = { title: "My databases · Tabula" };

export default DatabaseList;
