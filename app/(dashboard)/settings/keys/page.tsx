import { KeysPage } from "@/components/keys/keys-page";

export const metadata = { title: "API keys · Tabula" };

export default KeysPage;
