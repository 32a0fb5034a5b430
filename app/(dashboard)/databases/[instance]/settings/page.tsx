import { DatabaseSettings } from "@/components/databases/database-settings";

type Props = { params: Promise<{ instance: string }> };

const DatabaseSettingsPage = async ({ params }: Props) => <DatabaseSettings instance={(await params).instance} />;

export default DatabaseSettingsPage;
