"use client";
import { useAccount } from "../api/use-account";
import { Badge } from "../ui/badge";
import { PageHeader } from "../ui/page-header";
import { ThemeToggle } from "../shell/theme-toggle";
import { ChangePasswordForm } from "./change-password-form";
import { SignOutEverywhere } from "./sign-out-everywhere";

/** Settings → Your account: who you are, your password, your sessions, and the dashboard's theme. */
export const AccountSettingsPage = () => {
  const account = useAccount();
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader
        title="Your account"
        description={
          <span className="flex flex-wrap items-center gap-2">
            Signed in as <span className="font-medium break-all text-slate-900">{account.data?.email ?? "…"}</span>
            {account.data?.is_operator && <Badge tone="indigo">Operator</Badge>}
          </span>
        }
      />
      <ChangePasswordForm />
      <SignOutEverywhere />
      <section aria-labelledby="theme-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
        <h2 id="theme-title" className="text-sm font-semibold text-slate-900">
          Theme
        </h2>
        <p className="mt-1 text-sm text-slate-600">System follows your device&apos;s light or dark setting. Remembered in this browser.</p>
        <div className="mt-3 max-w-xs">
          <ThemeToggle />
        </div>
      </section>
    </div>
  );
};
