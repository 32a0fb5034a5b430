import { DatabaseActivity } from "@/components/audit/database-activity";

type Props = { params: Promise<{ instance: string }> };

const DatabaseActivityRoute = async ({ params }: Props) => <DatabaseActivity instance={(await params).instance} />;

export default DatabaseActivityRoute;
