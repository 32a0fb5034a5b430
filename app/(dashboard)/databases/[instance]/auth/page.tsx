import { AuthPage } from "@/components/db-auth/auth-page";

type Props = { params: Promise<{ instance: string }> };

const DatabaseAuthPage = async ({ params }: Props) => <AuthPage instance={(await params).instance} />;

export default DatabaseAuthPage;
