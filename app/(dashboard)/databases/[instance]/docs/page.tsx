import { ApiDocs } from "@/components/docs/api-docs";

type Props = { params: Promise<{ instance: string }> };

const DocsPage = async ({ params }: Props) => <ApiDocs instance={(await params).instance} />;

export default DocsPage;
