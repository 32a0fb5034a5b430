import NextAuth from "next-auth";
import { getApp } from "@/lib/app";
import { authOptions } from "@/lib/auth/auth-options";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

const handler = async (req: Request, ctx: RouteContext) => NextAuth(authOptions(await getApp()))(req, ctx);
export { handler as GET, handler as POST };
