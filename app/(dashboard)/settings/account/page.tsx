import { AccountSettingsPage } from "@/components/settings/account-settings-page";

export const metadata = { title: "Your account · Tabula" };

export default AccountSettingsPage;
