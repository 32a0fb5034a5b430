import { JoinsPage } from "@/components/joins/joins-page";

type Props = { params: Promise<{ instance: string }> };

const JoinsRoute = async ({ params }: Props) => <JoinsPage instance={(await params).instance} />;

export default JoinsRoute;
