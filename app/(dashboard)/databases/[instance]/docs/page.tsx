import { ApiDocs } from "@/components/docs/api-docs";
import { PublicDocsPanel } from "@/components/docs/public-docs-panel";

type Props = { params: Promise<{ instance: string }> };

/** Swagger first; the public docs settings folded below it. */
const DocsPage = async ({ params }: Props) => {
  const { instance } = await params;
  return (
    <div className="space-y-6">
      <ApiDocs instance={instance} />
      <details className="group rounded-lg border border-slate-200 bg-white shadow-xs">
        <summary className="cursor-pointer rounded-lg px-5 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500">
          Public docs and custom domain
        </summary>
        <div className="border-t border-slate-100 p-3">
          <PublicDocsPanel instance={instance} />
        </div>
      </details>
    </div>
  );
};

export default DocsPage;
