"use client";
import { useState } from "react";
import type { Account, CreditGrant } from "../api/types";
import { useAccounts, useSetAccountDisabled } from "../api/use-account";
import { usePlans } from "../api/use-plans";
import { creditsOf } from "../plans/plan-wording";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorState, LoadingState } from "../ui/states";
import { AccountPlanSelect } from "./account-plan-select";
import { GrantCreditsDialog } from "./grant-credits-dialog";
import { ResetPasswordDialog } from "./reset-password-dialog";
import { Table } from "../ui/table";

/** Databases used against the limit in force (the plan's, raised by the database credits spent on it). */
const DatabasesUsed = ({ account }: { account: Account }) => {
  const { databases } = account.usage;
  const limit = account.limits.databases;
  if (limit === null) return <>{databases} / unlimited</>;
  const raised = limit - (account.plan.max_databases ?? limit);
  return (
    <>
      {databases} / {limit}
      {raised > 0 && <span className="block text-xs text-slate-500">{raised} from credits</span>}
      {databases > limit && <span className="block text-xs text-slate-500">past the limit (its plan was lowered)</span>}
    </>
  );
};

const grantNotice = ({ entry, balances }: CreditGrant, account: Account) =>
  `Granted ${creditsOf(entry.amount, entry.kind)} to ${account.email}. Its balances: ${creditsOf(balances.databases, "databases")}, ${creditsOf(balances.ai_calls, "ai_calls")}.`;

/** Every account of the install with its plan, its use, its credits, and a way to grant more. */
export const AccountsTable = () => {
  const accounts = useAccounts(true);
  const plans = usePlans();
  const [granting, setGranting] = useState<Account | null>(null);
  const [resetting, setResetting] = useState<Account | null>(null);
  const [disabling, setDisabling] = useState<Account | null>(null);
  const status = useSetAccountDisabled();
  const setDisabled = (account: Account, disabled: boolean) =>
    status.mutate(
      { id: account.id, disabled },
      {
        onSuccess: () => {
          setDisabling(null);
          setNotice(`${account.email} is ${disabled ? "disabled: it cannot sign in and its keys are refused" : "enabled again"}.`);
        },
      },
    );
  const [notice, setNotice] = useState<string | null>(null);
  if (accounts.isLoading || plans.isLoading) return <LoadingState label="Loading accounts…" />;
  const error = accounts.error ?? plans.error;
  if (error) return <ErrorState error={error} onRetry={() => (accounts.refetch(), plans.refetch())} />;
  return (
    <div className="space-y-3">
      {notice && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {notice}
        </p>
      )}
      <Table label="Accounts" columns={["Email", "Role", "Status", "Plan", "Databases", "Credits", "Created", { label: "Actions", hidden: true }]}>
        {accounts.data?.map((a) => (
          <tr key={a.id} data-account={a.email}>
            <td className="px-4 py-2.5 text-slate-900">{a.email}</td>
            <td className="px-4 py-2.5">{a.is_operator ? <Badge tone="indigo">Operator</Badge> : <Badge>Member</Badge>}</td>
            <td className="px-4 py-2.5" data-column="status">
              {a.disabled_at ? <Badge tone="amber">Disabled</Badge> : <Badge tone="green">Active</Badge>}
            </td>
            <td className="px-4 py-2.5">
              <AccountPlanSelect account={a} plans={plans.data ?? []} />
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-700 tabular-nums" data-column="databases">
              <DatabasesUsed account={a} />
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-700 tabular-nums" data-column="credits">
              Databases: {a.credits.databases}
              <span className="block">AI calls: {a.credits.ai_calls}</span>
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap text-slate-600">{new Date(a.created_at).toLocaleDateString()}</td>
            <td className="px-4 py-2.5 text-right">
              <div className="flex justify-end gap-1.5">
                {!a.is_operator && (
                  <Button size="sm" onClick={() => (setGranting(a), setNotice(null))} aria-label={`Grant credits to ${a.email}`}>
                    Grant credits
                  </Button>
                )}
                <Button size="sm" onClick={() => (setResetting(a), setNotice(null))} aria-label={`Reset the password of ${a.email}`}>
                  Reset password
                </Button>
                {!a.is_operator &&
                  (a.disabled_at ? (
                    <Button size="sm" onClick={() => setDisabled(a, false)} pending={status.isPending && status.variables?.id === a.id} aria-label={`Enable ${a.email}`}>
                      Enable
                    </Button>
                  ) : (
                    <Button size="sm" variant="ghost" onClick={() => (setDisabling(a), setNotice(null))} aria-label={`Disable ${a.email}`}>
                      Disable…
                    </Button>
                  ))}
              </div>
            </td>
          </tr>
        ))}
      </Table>
      <ResetPasswordDialog account={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={disabling !== null}
        onClose={() => (setDisabling(null), status.reset())}
        title={`Disable ${disabling?.email ?? ""}?`}
        consequences={
          <>
            <p>The account can no longer sign in, its open sessions end, and its secret keys are refused by the management API and by its databases&apos; data API.</p>
            <p>Nothing is deleted: enable it again to undo all of it.</p>
          </>
        }
        confirmLabel="Disable account"
        pending={status.isPending}
        error={status.error}
        onConfirm={() => disabling && setDisabled(disabling, true)}
      />
      <GrantCreditsDialog account={granting} onClose={() => setGranting(null)} onGranted={(grant, account) => setNotice(grantNotice(grant, account))} />
    </div>
  );
};
