import { Suspense } from "react";
import { DataBrowser } from "@/components/data/data-browser";

type Props = { params: Promise<{ instance: string }> };

const DataPage = async ({ params }: Props) => (
  <Suspense>
    <DataBrowser instance={(await params).instance} />
  </Suspense>
);

export default DataPage;
