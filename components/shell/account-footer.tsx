"use client";
import { signOut } from "next-auth/react";
import { useAccount } from "../api/use-account";
import { LogoutIcon } from "../icons";
import { Badge } from "../ui/badge";
import { ThemeToggle } from "./theme-toggle";

/** Who is signed in, and the way out. */
export const AccountFooter = () => {
  const account = useAccount();
  const leave = async () => {
    await signOut({ redirect: false });
    window.location.assign("/login");
  };
  return (
    <div className="border-t border-slate-200 px-3 py-3">
      <p className="truncate px-1 text-sm font-medium text-slate-900" title={account.data?.email}>
        {account.data?.email ?? "…"}
      </p>
      <div className="mt-1 flex items-center justify-between gap-2 pl-1">
        {account.data?.is_operator ? <Badge tone="indigo">Operator</Badge> : <span />}
        <button
          type="button"
          onClick={leave}
          className="flex items-center gap-1 rounded-md px-2 py-1 text-sm whitespace-nowrap text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <LogoutIcon />
          Sign out
        </button>
      </div>
      <div className="mt-2">
        <ThemeToggle />
      </div>
    </div>
  );
};
