"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import type { Account, CreditLedger } from "../api/types";
import { useAccount } from "../api/use-account";
import { useCredits } from "../api/use-plans";
import { Badge } from "../ui/badge";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { CreditsLedger } from "./credits-ledger";
import { limitText, plural, rolesText } from "./plan-wording";
import { UsageMeter } from "./usage-meter";

const MB = 1024 * 1024;
const byteText = (n: number) => (n >= 1024 * MB ? `${(n / (1024 * MB)).toFixed(1)} GB` : `${(n / MB).toFixed(1)} MB`);

const Card = ({ title, children, aside }: { title: ReactNode; children: ReactNode; aside?: ReactNode }) => (
  <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" aria-label={typeof title === "string" ? title : undefined}>
    <div className="flex items-center justify-between gap-3">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {aside}
    </div>
    <div className="mt-4">{children}</div>
  </section>
);

const Limit = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex justify-between gap-4 py-2 text-sm">
    <dt className="text-slate-600">{label}</dt>
    <dd className="text-right font-medium text-slate-900">{children}</dd>
  </div>
);

const PlanLimits = ({ plan }: { plan: Account["plan"] }) => (
  <dl className="divide-y divide-slate-100">
    <Limit label="Databases">{limitText(plan.max_databases)}</Limit>
    <Limit label="Invitees">{limitText(plan.max_invitees)}</Limit>
    <Limit label="AI calls per month">{limitText(plan.ai_calls_per_month)}</Limit>
    <Limit label="Requests per second">
      {limitText(plan.requests_per_second)}
      <span className="block text-xs font-normal text-slate-500">data API, all your databases together</span>
    </Limit>
    <Limit label="Webhooks per database">{limitText(plan.max_webhooks_per_database)}</Limit>
    <Limit label="File storage">{plan.storage_bytes === null ? "unlimited" : byteText(plan.storage_bytes)}</Limit>
    <Limit label="Member roles">{rolesText(plan.roles)}</Limit>
    <Limit label="Custom domain for API docs">{plan.custom_domain ? "yes" : "no"}</Limit>
  </dl>
);

const Usage = ({ account, ledger }: { account: Account; ledger: CreditLedger }) => {
  const { plan, usage } = account;
  const credits = ledger.balances;
  const dbLimit = account.limits.databases;
  const raised = dbLimit === null || plan.max_databases === null ? 0 : dbLimit - plan.max_databases;
  const dbDetail =
    dbLimit === null ? undefined : (
      <>
        The {plan.name} plan allows {limitText(plan.max_databases)}
        {raised > 0 && `; ${plural(raised, "database credit")} spent raised it to ${dbLimit}`}.
        {credits.databases > 0 && ` ${plural(credits.databases, "database credit")} left: the next database past the limit uses one.`}
      </>
    );
  return (
    <div className="space-y-5">
      <UsageMeter label="Databases" used={usage.databases} limit={dbLimit} detail={dbDetail} />
      <UsageMeter
        label="Invitees"
        used={usage.invitees}
        limit={plan.max_invitees}
        detail={plan.max_invitees === 0 ? "Your plan has no members besides you." : "Members plus pending invites of your workspace."}
      />
      <UsageMeter
        label="AI calls this month"
        used={usage.ai_calls_this_month}
        limit={plan.ai_calls_per_month}
        detail={plan.ai_calls_per_month === null ? undefined : `Counted per calendar month (UTC).${credits.ai_calls ? ` Then ${plural(credits.ai_calls, "AI credit")} pay for more.` : ""}`}
      />
      <UsageMeter
        label="File storage (MB)"
        used={Math.ceil(usage.storage_bytes / MB)}
        limit={plan.storage_bytes === null ? null : Math.floor(plan.storage_bytes / MB)}
        detail={`${byteText(usage.storage_bytes)} of uploaded files across your databases.`}
      />
    </div>
  );
};

const Balance = ({ label, value }: { label: string; value: number }) => (
  <div className="rounded-md bg-slate-50 px-4 py-3" aria-label={label}>
    <p className="text-xs font-medium text-slate-600">{label}</p>
    <p className="mt-0.5 text-2xl font-semibold text-slate-900 tabular-nums">{value.toLocaleString()}</p>
  </div>
);

const HowToRaise = ({ operator }: { operator: boolean }) =>
  operator ? (
    <p className="text-sm text-slate-600">
      Other accounts get their limits from their plan: move them between plans and grant them credits on{" "}
      <Link href="/settings/accounts" className="font-medium text-indigo-700 hover:underline">Accounts</Link>, and change what each plan allows on{" "}
      <Link href="/settings/plans" className="font-medium text-indigo-700 hover:underline">Plans</Link>.
    </p>
  ) : (
    <p className="text-sm text-slate-600">
      Need more? Ask the operator of this install to move you to a larger plan, or buy credits: each database credit raises your database limit by
      one for good, and each AI credit pays for one AI call after the month’s allowance. Credits never expire while your account is active.
    </p>
  );

/** Developer settings → Plan & usage: the account's plan, what it uses against it, its credits and their ledger. */
export const PlanUsagePage = () => {
  const account = useAccount();
  const ledger = useCredits();
  const error = account.error ?? ledger.error;
  if (error) return <ErrorState error={error} title="Could not load your plan" onRetry={() => (account.refetch(), ledger.refetch())} />;
  if (!account.data || !ledger.data) return <LoadingState label="Loading your plan…" />;
  const me = account.data;
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader title="Plan & usage" description="What your plan allows, what this account uses against it, and its credits." />
      {me.is_operator && (
        <p role="status" className="rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
          You are the operator of this install: your account is unlimited, whatever the plans say.
        </p>
      )}
      <div className="grid gap-6 md:grid-cols-2">
        <Card title="Plan" aside={<Badge tone={me.is_operator ? "indigo" : "slate"}>{me.plan.name}</Badge>}>
          <PlanLimits plan={me.plan} />
        </Card>
        <Card title="Usage">
          <Usage account={me} ledger={ledger.data} />
        </Card>
      </div>
      <Card title="Credits">
        <div className="grid max-w-md grid-cols-2 gap-3">
          <Balance label="Database credits" value={ledger.data.balances.databases} />
          <Balance label="AI call credits" value={ledger.data.balances.ai_calls} />
        </div>
        <div className="mt-4">
          <HowToRaise operator={me.is_operator} />
        </div>
      </Card>
      <div className="space-y-3">
        <h2 className="text-sm font-semibold text-slate-900">Credits ledger</h2>
        <CreditsLedger entries={ledger.data.entries} />
      </div>
    </div>
  );
};
