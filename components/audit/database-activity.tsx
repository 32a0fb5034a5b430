"use client";
import { useDatabase } from "../api/use-databases";
import { ErrorState, LoadingState } from "../ui/states";
import { ActivityLog } from "./activity-log";

/** A database's Activity tab: the audit log of its workspace, limited to this database. */
export const DatabaseActivity = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  if (database.error) return <ErrorState error={database.error} title="Could not load the activity" onRetry={() => database.refetch()} />;
  if (!database.data) return <LoadingState label="Loading activity…" />;
  const db = database.data;
  return (
    <div className="space-y-4">
      <h2 className="text-sm font-semibold text-slate-900">Activity</h2>
      <p className="text-sm text-slate-600">Every change to this database, newest first: who made it, how, and the values before and after.</p>
      <ActivityLog workspace={db.role === "owner" ? undefined : db.owner.id} database={instance} />
    </div>
  );
};
