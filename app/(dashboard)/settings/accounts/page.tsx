import { AccountsPage } from "@/components/accounts/accounts-page";

export const metadata = { title: "Accounts · Tabula" };

export default AccountsPage;
