import { Suspense } from "react";
import { SchemaEditor } from "@/components/schema/schema-editor";

type Props = { params: Promise<{ instance: string }> };

const SchemaPage = async ({ params }: Props) => (
  <Suspense>
    <SchemaEditor instance={(await params).instance} />
  </Suspense>
);

export default SchemaPage;
