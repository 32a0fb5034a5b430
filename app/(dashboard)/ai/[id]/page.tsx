import { notFound } from "next/navigation";
import { BuildDetail } from "@/components/ai/build-detail";

export const metadata = { title: "AI build · Tabula" };

type Props = { params: Promise<{ id: string }> };

const BuildPage = async ({ params }: Props) => {
  const { id } = await params;
  if (!/^[1-9]\d{0,15}$/.test(id)) notFound();
  return <BuildDetail id={Number(id)} />;
};

export default BuildPage;
