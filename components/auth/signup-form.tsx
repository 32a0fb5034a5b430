"use client";
import Link from "next/link";
import { useSignupStatus } from "../api/use-account";
import { ErrorState, LoadingState } from "../ui/states";
import { AccountForm } from "./account-form";
import { AuthCard } from "./auth-card";
import { useSignUpAndIn } from "./use-sign-up-and-in";

export const SignupForm = () => {
  const status = useSignupStatus();
  const signUp = useSignUpAndIn();
  const closed = status.data && status.data.has_accounts && status.data.signup !== "open";
  return (
    <AuthCard title="Create an account" footer={<Link className="font-medium text-indigo-600 hover:underline" href="/login">I already have an account</Link>}>
      {status.isLoading ? (
        <LoadingState />
      ) : status.error ? (
        <ErrorState error={status.error} onRetry={() => status.refetch()} />
      ) : closed ? (
        <p className="text-sm text-slate-600">Sign-up is closed on this install. Ask its operator to create an account for you.</p>
      ) : (
        <AccountForm submitLabel="Create account" pending={signUp.isPending || signUp.isSuccess} error={signUp.error} onSubmit={signUp.mutate} />
      )}
    </AuthCard>
  );
};
