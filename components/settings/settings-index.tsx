"use client";
import Link from "next/link";
import { useAccount } from "../api/use-account";
import { PageHeader } from "../ui/page-header";

const PAGES = [
  { href: "/settings/keys", title: "API keys", text: "Secret keys for the data and management APIs.", operator: false },
  { href: "/settings/team", title: "Team", text: "Members of your workspace, their roles, and invites.", operator: false },
  { href: "/settings/activity", title: "Activity", text: "The audit log: every change to your workspace and every sign-in, with who, how and from where.", operator: false },
  { href: "/settings/plan", title: "Plan & usage", text: "Your plan's limits, what counts against them, and your credits.", operator: false },
  { href: "/settings/account", title: "Your account", text: "Your email, your password and the theme.", operator: false },
  { href: "/settings/accounts", title: "Accounts", text: "Every account of this install: plans, credits, disable, password reset.", operator: true },
  { href: "/settings/plans", title: "Plans", text: "The limits of each plan.", operator: true },
  { href: "/settings/mailbox", title: "Mailbox", text: "Every mail the install wrote: kept without SMTP_URL, or sent, queued or failed.", operator: true },
];

/** /settings: every settings page, one card each (the operator's pages only for the operator). */
export const SettingsIndex = () => {
  const account = useAccount();
  const pages = PAGES.filter((p) => !p.operator || account.data?.is_operator);
  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="Keys, your team, your plan and your account." />
      <ul className="grid gap-3 sm:grid-cols-2">
        {pages.map((p) => (
          <li key={p.href}>
            <Link href={p.href} className="block h-full rounded-lg border border-slate-200 bg-white p-4 shadow-xs hover:border-indigo-300">
              <span className="block text-sm font-semibold text-slate-900">{p.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{p.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
};
