import { ApiDocs } from "@/components/docs/api-docs";
import { PublicDocsPanel } from "@/components/docs/public-docs-panel";

type Props = { params: Promise<{ instance: string }> };

const DocsPage = async ({ params }: Props) => {
  const { instance } = await params;
  return (
    <div className="space-y-6">
      <PublicDocsPanel instance={instance} />
      <ApiDocs instance={instance} />
    </div>
  );
};

export default DocsPage;
