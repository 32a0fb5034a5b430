"use client";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { IntentLink } from "../ui/intent-link";

/** A sidebar link, highlighted while the current path is under `match` (its href by default), or when `active` says so. */
type Props = { href: string; match?: string; exact?: boolean; active?: boolean; icon?: ReactNode; children: ReactNode };

export const NavLink = ({ href, match, exact = false, active: forced, icon, children }: Props) => {
  const pathname = usePathname();
  const prefix = match ?? href;
  const active = forced ?? (pathname === prefix || (!exact && pathname.startsWith(`${prefix}/`)));
  return (
    <IntentLink
      href={href}
      aria-current={active ? "page" : undefined}
      className={`flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm ${
        active ? "bg-indigo-50 font-medium text-indigo-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
      }`}
    >
      {icon}
      <span className="truncate">{children}</span>
    </IntentLink>
  );
};
