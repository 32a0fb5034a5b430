import { SettingsIndex } from "@/components/settings/settings-index";

export const metadata = { title: "Settings · Tabula" };

export default SettingsIndex;
