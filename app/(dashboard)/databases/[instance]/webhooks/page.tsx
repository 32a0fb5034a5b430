import { WebhooksPage } from "@/components/webhooks/webhooks-page";

type Props = { params: Promise<{ instance: string }> };

const WebhooksRoute = async ({ params }: Props) => <WebhooksPage instance={(await params).instance} />;

export default WebhooksRoute;
