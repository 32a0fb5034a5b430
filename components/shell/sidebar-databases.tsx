"use client";
import { usePathname, useSearchParams } from "next/navigation";
import type { DatabaseSummary } from "../api/types";
import { useDatabases } from "../api/use-databases";
import { DatabaseIcon, ShareIcon } from "../icons";
import { Spinner } from "../ui/spinner";
import { NavLink } from "./nav-link";

const DatabaseLinks = ({ databases, empty }: { databases: DatabaseSummary[]; empty: string }) =>
  databases.length === 0 ? (
    <p className="py-1 pl-8 text-xs text-slate-500">{empty}</p>
  ) : (
    <div className="space-y-0.5 pl-3">
      {databases.map((db) => (
        <NavLink key={db.instance} href={`/databases/${db.instance}/schema`} match={`/databases/${db.instance}`} icon={<DatabaseIcon className="size-4 shrink-0" />}>
          {db.name}
        </NavLink>
      ))}
    </div>
  );

/** The sidebar's two lists, as the databases page's tabs: your workspace's databases, and those shared with you. */
export const SidebarDatabases = () => {
  const pathname = usePathname();
  const shared = useSearchParams().get("scope") === "shared";
  const databases = useDatabases({ scope: "all" });
  const onList = pathname === "/databases";
  const list = databases.data ?? [];
  const body = (mine: boolean) =>
    databases.isLoading ? (
      <Spinner className="mx-8 my-2 size-4 text-slate-400" />
    ) : databases.error ? (
      <p className="pl-8 text-xs text-red-600">Could not load databases.</p>
    ) : (
      <DatabaseLinks databases={list.filter((db) => (db.role === "owner") === mine)} empty={mine ? "No databases yet." : "Nothing shared with you."} />
    );
  return (
    <div className="space-y-1">
      <NavLink href="/databases" active={onList && !shared} icon={<span className="w-4 text-center text-slate-400">≡</span>}>
        My databases
      </NavLink>
      {body(true)}
      <NavLink href="/databases?scope=shared" active={onList && shared} icon={<ShareIcon className="size-4 shrink-0 text-slate-400" />}>
        Shared with me
      </NavLink>
      {body(false)}
    </div>
  );
};
