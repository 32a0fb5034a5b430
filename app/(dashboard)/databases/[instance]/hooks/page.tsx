import { HooksPage } from "@/components/hooks/hooks-page";

type Props = { params: Promise<{ instance: string }> };

const HooksRoute = async ({ params }: Props) => <HooksPage instance={(await params).instance} />;

export default HooksRoute;
