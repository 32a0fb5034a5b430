"use client";
import { useAccount, useAccounts } from "../api/use-account";
import { Badge } from "../ui/badge";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { AddAccountForm } from "./add-account-form";
import { SignupSetting } from "./signup-setting";

const AccountsTable = () => {
  const accounts = useAccounts(true);
  if (accounts.isLoading) return <LoadingState label="Loading accounts…" />;
  if (accounts.error) return <ErrorState error={accounts.error} onRetry={() => accounts.refetch()} />;
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Accounts">
        <thead className="bg-slate-50 text-left text-xs font-medium text-slate-600">
          <tr>
            <th className="px-4 py-2">Email</th>
            <th className="px-4 py-2">Role</th>
            <th className="px-4 py-2">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {accounts.data?.map((a) => (
            <tr key={a.id}>
              <td className="px-4 py-2.5 text-slate-900">{a.email}</td>
              <td className="px-4 py-2.5">{a.is_operator ? <Badge tone="indigo">Operator</Badge> : <Badge>Member</Badge>}</td>
              <td className="px-4 py-2.5 text-slate-600">{new Date(a.created_at).toLocaleDateString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

/** Developer Settings → Accounts (operator only): who may sign up, and the accounts of this install. */
export const AccountsPage = () => {
  const me = useAccount();
  if (me.isLoading) return <LoadingState />;
  if (!me.data?.is_operator) {
    return <ErrorState error={new Error("Only the operator of this install manages accounts.")} title="Not available" />;
  }
  return (
    <div className="max-w-4xl space-y-6">
      <PageHeader title="Accounts" description="You are the operator of this install: you decide who gets an account." />
      <SignupSetting />
      <AddAccountForm />
      <AccountsTable />
    </div>
  );
};
