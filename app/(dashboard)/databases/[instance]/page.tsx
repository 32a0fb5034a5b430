import { redirect } from "next/navigation";

type Props = { params: Promise<{ instance: string }> };

const DatabasePage = async ({ params }: Props) => redirect(`/databases/${(await params).instance}/schema`);

export default DatabasePage;
