"use client";
import { useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useSignupStatus } from "../api/use-account";
import { ErrorState, LoadingState } from "../ui/states";

/** `/`: a fresh install goes to first-run account creation, a signed-in user to their databases, else sign-in. */
export const EntryRedirect = () => {
  const router = useRouter();
  const signup = useSignupStatus();
  const { status } = useSession();
  useEffect(() => {
    if (!signup.data || status === "loading") return;
    router.replace(signup.data.first_run ? "/setup" : status === "authenticated" ? "/databases" : "/login");
  }, [signup.data, status, router]);
  return (
    <main className="mx-auto max-w-md px-6 py-24">
      {signup.error ? <ErrorState error={signup.error} title="Tabula is not answering" onRetry={() => signup.refetch()} /> : <LoadingState label="Opening Tabula…" />}
    </main>
  );
};
