"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { can } from "../api/can";
import { useAccount } from "../api/use-account";
import { useWorkspaces } from "../api/use-team";
import { SelectInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { ActivityLog } from "./activity-log";

/** Developer settings → Activity: the audit log of your workspace, or of one where you are an admin (?workspace=). */
export const ActivityPage = () => {
  const router = useRouter();
  const params = useSearchParams();
  const account = useAccount();
  const workspaces = useWorkspaces();
  const error = account.error ?? workspaces.error;
  if (error) return <ErrorState error={error} title="Could not load the activity" onRetry={() => (account.refetch(), workspaces.refetch())} />;
  if (!account.data || !workspaces.data) return <LoadingState label="Loading activity…" />;
  const managed = workspaces.data.filter((w) => can(w.role, "admin"));
  const other = managed.find((w) => String(w.owner.id) === params.get("workspace"));
  const switcher = managed.length > 0 && (
    <SelectInput
      aria-label="Workspace"
      className="w-80"
      value={other ? String(other.owner.id) : ""}
      onChange={(e) => router.replace(e.target.value ? `/settings/activity?workspace=${e.target.value}` : "/settings/activity")}
    >
      <option value="">{account.data.is_operator ? "Every workspace" : "My workspace"}</option>
      {managed.map((w) => (
        <option key={w.owner.id} value={w.owner.id}>
          {w.owner.email}’s workspace
        </option>
      ))}
    </SelectInput>
  );
  const description = other
    ? `Changes and sign-ins in ${other.owner.email}’s workspace, newest first.`
    : account.data.is_operator
      ? "Every change and sign-in of this install, newest first: who, what, where, from which address. Kept 90 days by default."
      : "Every change to your workspace and every sign-in to your account, newest first: who, what, where, from which address.";
  return (
    <div className="max-w-6xl space-y-6">
      <PageHeader title="Activity" description={description} actions={switcher} />
      <ActivityLog key={other?.owner.id ?? "own"} workspace={other?.owner.id} />
    </div>
  );
};
