"use client";
import { useState } from "react";
import type { Plan, PlanPut } from "../api/types";
import { useAccount, useAccounts } from "../api/use-account";
import { PLAN_NAME_RE, usePlans } from "../api/use-plans";
import { Field, TextInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { PlanForm } from "./plan-form";
import { plural } from "./plan-wording";

const BLANK: PlanPut = { max_databases: 1, max_invitees: 0, roles: [], custom_domain: false, ai_calls_per_month: 0, requests_per_second: 10, max_webhooks_per_database: 3, storage_bytes: null };

/** A form for a plan that does not exist yet; it starts from the limits of the first plan. */
const NewPlanForm = ({ plans }: { plans: Plan[] }) => {
  const [name, setName] = useState("");
  const [round, setRound] = useState(0);
  const [created, setCreated] = useState<string | null>(null);
  const checkName = () => {
    const trimmed = name.trim();
    if (!PLAN_NAME_RE.test(trimmed)) return { name: trimmed, problem: "1 to 32 lowercase letters, digits, - or _, starting with a letter." };
    if (plans.some((p) => p.name === trimmed)) return { name: trimmed, problem: `There is already a plan named ${trimmed}: edit it above.` };
    return { name: trimmed };
  };
  return (
    <div className="space-y-2">
      {created && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Plan {created} created: it is listed above, and you can move accounts to it on Accounts.
        </p>
      )}
      <PlanForm
        key={round}
        initial={plans[0] ?? BLANK}
        title="New plan"
        subtitle={plans[0] ? `Starts from the limits of ${plans[0].name}.` : undefined}
        checkName={checkName}
        nameField={(error) => (
          <Field className="max-w-xs" label="Name" htmlFor="plan-new-name" hint="e.g. startup: lowercase letters, digits, - or _." error={error}>
            <TextInput id="plan-new-name" value={name} onChange={(e) => setName(e.target.value)} invalid={!!error} autoComplete="off" />
          </Field>
        )}
        onSaved={(plan) => {
          setCreated(plan.name);
          setName("");
          setRound(round + 1);
        }}
      />
    </div>
  );
};

const PlanForms = () => {
  const plans = usePlans();
  const accounts = useAccounts(true);
  if (plans.isLoading) return <LoadingState label="Loading plans…" />;
  if (plans.error || !plans.data) return <ErrorState error={plans.error} onRetry={() => plans.refetch()} />;
  const onPlan = (name: string) => accounts.data?.filter((a) => !a.is_operator && a.plan.name === name).length;
  return (
    <>
      {plans.data.map((plan) => {
        const count = onPlan(plan.name);
        return <PlanForm key={plan.name} name={plan.name} initial={plan} title={plan.name} subtitle={count === undefined ? undefined : `${plural(count, "account")} on this plan`} />;
      })}
      <NewPlanForm plans={plans.data} />
    </>
  );
};

/** Developer settings → Plans (operator only): what each plan allows, editable, and new plans. */
export const PlansPage = () => {
  const me = useAccount();
  if (me.isLoading) return <LoadingState />;
  if (!me.data?.is_operator) return <ErrorState error={new Error("Only the operator of this install edits plans.")} title="Not available" />;
  return (
    <div className="max-w-4xl space-y-6">
      <PageHeader
        title="Plans"
        description="What each plan allows. Accounts on a plan get its new limits from their next request; databases already over a lowered limit stay, new ones are refused."
      />
      <PlanForms />
    </div>
  );
};
