import NextAuth from "next-auth";
import { getApp } from "@/lib/app";
import { authOptions } from "@/lib/auth/auth-options";
import { limitDashboardSignIn } from "@/lib/auth/limit-dashboard-sign-in";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

const handler = limitDashboardSignIn(getApp, async (req: Request, ctx: RouteContext, signIn) => NextAuth(authOptions(await getApp(), signIn))(req, ctx));
export { handler as GET, handler as POST };
