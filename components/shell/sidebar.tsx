"use client";
import Link from "next/link";
import { Suspense } from "react";
import { useAccount } from "../api/use-account";
import { ActivityIcon, GaugeIcon, KeyIcon, LayersIcon, Logo, MailIcon, PlusIcon, SparklesIcon, UserIcon, UserPlusIcon, UsersIcon } from "../icons";
import { AccountFooter } from "./account-footer";
import { NavLink } from "./nav-link";
import { SidebarDatabases } from "./sidebar-databases";

const SectionTitle = ({ children }: { children: string }) => (
  <p className="mb-1 px-2.5 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{children}</p>
);

/** The logo, the main navigation and the account footer: in the sidebar from md up, in the drawer below. */
export const SidebarContent = () => {
  const account = useAccount();
  return (
    <>
      <div className="px-4 py-4">
        <Link href="/databases" aria-label="Tabula home">
          <Logo />
        </Link>
      </div>
      <nav className="flex-1 space-y-6 overflow-y-auto px-2 pb-4" aria-label="Main">
        <div>
          <div className="mb-1 flex items-center justify-between pr-1">
            <SectionTitle>Databases</SectionTitle>
            <Link href="/databases/new" className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label="New database" title="New database">
              <PlusIcon />
            </Link>
          </div>
          <Suspense>
            <SidebarDatabases />
          </Suspense>
        </div>
        <div>
          <SectionTitle>AI</SectionTitle>
          <NavLink href="/ai" icon={<SparklesIcon className="size-4 shrink-0" />}>
            AI builds
          </NavLink>
        </div>
        <div>
          <SectionTitle>Developer settings</SectionTitle>
          <NavLink href="/settings/keys" icon={<KeyIcon className="size-4 shrink-0" />}>
            API keys
          </NavLink>
          <NavLink href="/settings/team" icon={<UserPlusIcon className="size-4 shrink-0" />}>
            Team
          </NavLink>
          <NavLink href="/settings/activity" icon={<ActivityIcon className="size-4 shrink-0" />}>
            Activity
          </NavLink>
          <NavLink href="/settings/plan" icon={<GaugeIcon className="size-4 shrink-0" />}>
            Plan &amp; usage
          </NavLink>
          <NavLink href="/settings/account" icon={<UserIcon className="size-4 shrink-0" />}>
            Your account
          </NavLink>
          {account.data?.is_operator && (
            <>
              <NavLink href="/settings/accounts" icon={<UsersIcon className="size-4 shrink-0" />}>
                Accounts
              </NavLink>
              <NavLink href="/settings/plans" icon={<LayersIcon className="size-4 shrink-0" />}>
                Plans
              </NavLink>
              <NavLink href="/settings/mailbox" icon={<MailIcon className="size-4 shrink-0" />}>
                Mailbox
              </NavLink>
            </>
          )}
        </div>
      </nav>
      <AccountFooter />
    </>
  );
};

export const Sidebar = () => (
  <aside className="sticky top-0 hidden h-screen w-60 shrink-0 flex-col border-r border-slate-200 bg-white md:flex">
    <SidebarContent />
  </aside>
);
