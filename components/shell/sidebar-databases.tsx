"use client";
import { useDatabases } from "../api/use-databases";
import { DatabaseIcon } from "../icons";
import { Spinner } from "../ui/spinner";
import { NavLink } from "./nav-link";

/** The sidebar's list of the user's databases. */
export const SidebarDatabases = () => {
  const databases = useDatabases();
  if (databases.isLoading) return <Spinner className="mx-2.5 my-2 size-4 text-slate-400" />;
  if (databases.error) return <p className="px-2.5 text-xs text-red-600">Could not load databases.</p>;
  if (!databases.data?.length) return <p className="px-2.5 text-xs text-slate-500">No databases yet.</p>;
  return (
    <div className="space-y-0.5">
      {databases.data.map((db) => (
        <NavLink key={db.instance} href={`/databases/${db.instance}/schema`} match={`/databases/${db.instance}`} icon={<DatabaseIcon className="size-4 shrink-0" />}>
          {db.name}
        </NavLink>
      ))}
    </div>
  );
};
