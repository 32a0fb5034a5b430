"use client";
import Link from "next/link";
import { can } from "../api/can";
import type { Workspace } from "../api/types";
import { Badge } from "../ui/badge";
import { Table } from "../ui/table";
import { formatDate } from "./team-wording";

const linkClass = "font-medium text-indigo-700 hover:underline";

/** The workspaces you are a member of: whose, your role, and where to find their databases. */
export const WorkspacesList = ({ workspaces }: { workspaces: Workspace[] }) => {
  if (workspaces.length === 0) {
    return <p className="text-sm text-slate-500">You are not a member of anyone else’s workspace. When someone invites you, it shows here.</p>;
  }
  return (
    <Table label="Workspaces you belong to" columns={["Owner", "Your role", "Joined", { label: "Links", hidden: true }]}>
      {workspaces.map((w) => (
        <tr key={w.owner.id} data-workspace={w.owner.email}>
          <td className="px-4 py-2.5 text-slate-900">{w.owner.email}</td>
          <td className="px-4 py-2.5">
            <Badge tone="indigo">{w.role}</Badge>
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap text-slate-600">{formatDate(w.joined_at)}</td>
          <td className="space-x-4 px-4 py-2.5 text-right whitespace-nowrap">
            <Link className={linkClass} href={`/databases?scope=shared&workspace=${w.owner.id}`}>
              Databases
            </Link>
            <Link className={linkClass} href={`/settings/team?workspace=${w.owner.id}`}>
              {can(w.role, "admin") ? "Manage team" : "Members"}
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
};
