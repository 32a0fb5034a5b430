"use client";
import { fieldErrors } from "../api/api-error";
import type { Account, Plan } from "../api/types";
import { useSetAccountPlan } from "../api/use-plans";
import { SelectInput } from "../ui/field";
import { FormError } from "../ui/states";

/** The plan of one account, changed in place (PATCH /accounts/{id}); the operator's own is always unlimited. */
export const AccountPlanSelect = ({ account, plans }: { account: Account; plans: Plan[] }) => {
  const setPlan = useSetAccountPlan();
  if (account.is_operator) return <span className="text-slate-700">Operator (unlimited)</span>;
  const error = fieldErrors(setPlan.error).plan;
  const id = `account-${account.id}-plan`;
  return (
    <div>
      <SelectInput
        id={id}
        aria-label={`Plan of ${account.email}`}
        className="w-36"
        value={setPlan.isPending ? setPlan.variables.body.plan : account.plan.name}
        disabled={setPlan.isPending}
        invalid={!!setPlan.error}
        onChange={(e) => setPlan.mutate({ id: account.id, body: { plan: e.target.value } })}
      >
        {/* An account can name a plan the list does not have (data edited by hand): keep it selectable. */}
        {!plans.some((p) => p.name === account.plan.name) && <option value={account.plan.name}>{account.plan.name}</option>}
        {plans.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
      </SelectInput>
      {error ? <p className="field-error mt-1 text-xs text-red-600">{error}</p> : setPlan.error ? <div className="mt-1"><FormError error={setPlan.error} /></div> : null}
    </div>
  );
};
