"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useSignupStatus } from "../api/use-account";
import { ErrorState, LoadingState } from "../ui/states";
import { AccountForm } from "./account-form";
import { AuthCard } from "./auth-card";
import { useSignUpAndIn } from "./use-sign-up-and-in";

/** First run: no account exists yet, so the first visitor creates the operator's account. */
export const SetupForm = () => {
  const router = useRouter();
  const status = useSignupStatus();
  const signUp = useSignUpAndIn();
  const done = status.data && !status.data.first_run && !signUp.isPending && !signUp.isSuccess;
  useEffect(() => {
    if (done) router.replace("/login");
  }, [done, router]);
  return (
    <AuthCard
      title="Create your account"
      description="Welcome to Tabula. This is a fresh install: the account you create now is the operator's, who decides whether others may sign up."
    >
      {status.isLoading || done ? (
        <LoadingState />
      ) : status.error ? (
        <ErrorState error={status.error} onRetry={() => status.refetch()} />
      ) : (
        <AccountForm submitLabel="Create account" pending={signUp.isPending || signUp.isSuccess} error={signUp.error} onSubmit={signUp.mutate} />
      )}
    </AuthCard>
  );
};
