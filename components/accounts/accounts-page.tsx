"use client";
import { useAccount } from "../api/use-account";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { AccountsTable } from "./accounts-table";
import { AddAccountForm } from "./add-account-form";
import { SignupSetting } from "./signup-setting";

/** Developer Settings → Accounts (operator only): who may sign up, and the accounts of this install. */
export const AccountsPage = () => {
  const me = useAccount();
  if (me.isLoading) return <LoadingState />;
  if (!me.data?.is_operator) {
    return <ErrorState error={new Error("Only the operator of this install manages accounts.")} title="Not available" />;
  }
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader title="Accounts" description="You are the operator of this install: you decide who gets an account, on which plan, and with which credits." />
      <SignupSetting />
      <AddAccountForm />
      <AccountsTable />
    </div>
  );
};
