"use client";
import { useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect } from "react";
import { LoadingState } from "../ui/states";

/** Dashboard pages need a session; without one, go to sign-in (which sends a fresh install to first run). */
export const AuthGate = ({ children }: { children: ReactNode }) => {
  const { status } = useSession();
  const router = useRouter();
  useEffect(() => {
    if (status === "unauthenticated") router.replace("/login");
  }, [status, router]);
  if (status !== "authenticated") return <LoadingState label="Checking your session…" />;
  return <>{children}</>;
};
