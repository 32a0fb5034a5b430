"use client";
import Link from "next/link";
import { useAiBuilds } from "../api/use-ai-builds";
import { PageHeader } from "../ui/page-header";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { Table } from "../ui/table";
import { creditText, ModelBadge, StatusBadge } from "./build-badges";
import { formatWhen } from "./build-text";

/** Every AI build of yours and your workspace's, newest first; each opens with its steps and plan. */
export const BuildsPage = () => {
  const builds = useAiBuilds();
  return (
    <div className="space-y-6">
      <PageHeader
        title="AI builds"
        description="Each prompt given to the AI builder, what it planned, what it cost and whether it was applied. A planned build can still be applied from its page."
      />
      {builds.isLoading ? (
        <LoadingState label="Loading AI builds…" />
      ) : builds.error ? (
        <ErrorState error={builds.error} title="Could not load the AI builds" onRetry={() => builds.refetch()} />
      ) : !builds.data?.length ? (
        <EmptyState
          title="No AI builds yet"
          action={
            <Link href="/databases" className="text-sm font-medium text-indigo-700 hover:underline">
              Open the AI builder on the Databases page
            </Link>
          }
        >
          Describe an app in a sentence on the Databases page, or extend a database from its header.
        </EmptyState>
      ) : (
        <Table label="AI builds" columns={["Prompt", "Status", "Planner", "Cost", "Created", "Database"]}>
          {builds.data.map((b) => (
            <tr key={b.id} data-build={b.id} className="hover:bg-slate-50/70">
              <td className="max-w-md px-4 py-2.5" data-column="prompt">
                <Link href={`/ai/${b.id}`} className="line-clamp-2 font-medium text-slate-900 hover:text-indigo-700 hover:underline">
                  {b.prompt}
                </Link>
                {b.kind === "join" && <span className="text-xs text-slate-500">Join proposal</span>}
              </td>
              <td className="px-4 py-2.5" data-column="status">
                <StatusBadge status={b.status} />
              </td>
              <td className="px-4 py-2.5" data-column="planner">
                <ModelBadge build={b} />
              </td>
              <td className="px-4 py-2.5 text-xs whitespace-nowrap text-slate-600" data-column="cost">
                {creditText(b)}
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-600" data-column="created">
                {formatWhen(b.created_at)}
              </td>
              <td className="px-4 py-2.5" data-column="database">
                {b.database ? (
                  <Link href={`/databases/${b.database}/schema`} className="font-mono text-xs text-indigo-700 hover:underline">
                    {b.database}
                  </Link>
                ) : (
                  <span className="text-xs text-slate-400">—</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
};
