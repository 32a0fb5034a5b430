import { InvitePage } from "@/components/auth/invite-page";

export const metadata = { title: "Invite · Tabula" };

type Props = { params: Promise<{ token: string }> };

const InviteRoute = async ({ params }: Props) => <InvitePage token={(await params).token} />;

export default InviteRoute;
