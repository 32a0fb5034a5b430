import type { ReactNode } from "react";
import { DatabaseHeader } from "@/components/databases/database-header";

type Props = { children: ReactNode; params: Promise<{ instance: string }> };

const DatabaseLayout = async ({ children, params }: Props) => <DatabaseHeader instance={(await params).instance}>{children}</DatabaseHeader>;

export default DatabaseLayout;
