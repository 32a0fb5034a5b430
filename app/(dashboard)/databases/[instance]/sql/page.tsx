import { SqlConsole } from "@/components/sql/sql-console";

type Props = { params: Promise<{ instance: string }> };

const SqlRoute = async ({ params }: Props) => <SqlConsole instance={(await params).instance} />;

export default SqlRoute;
