"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Account, AccountPlanPatch, CreditGrant, CreditGrantCreate, CreditLedger, Plan, PlanPut } from "./types";

// The vocabularies the forms offer; their modules import nothing, so the dashboard can share them.
export { CREDIT_KINDS } from "@/lib/credits/ledger-kinds";
export { MEMBER_ROLES, PLAN_NAME_RE } from "@/lib/plans/default-plans";

export const usePlans = () => useQuery({ queryKey: queryKeys.plans, queryFn: () => mgmt<Plan[]>("plans") });

/** The signed-in account's credits ledger (newest first) and balances. */
export const useCredits = () =>
  useQuery({ queryKey: queryKeys.credits, queryFn: () => mgmt<CreditLedger>("account/credits"), staleTime: 0, refetchOnMount: "always" });

/** Creates or replaces a plan: every account on it, and the accounts list, show the new limits. */
export const usePutPlan = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ name, limits }: { name: string; limits: PlanPut }) => mgmt<Plan>(`plans/${encodeURIComponent(name)}`, { method: "PUT", body: limits }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.plans }),
        qc.invalidateQueries({ queryKey: queryKeys.accounts }),
        qc.invalidateQueries({ queryKey: queryKeys.account }),
      ]),
  });
};

const replaceAccount = (accounts: Account[] | undefined, next: Account) => accounts?.map((a) => (a.id === next.id ? next : a));

export const useSetAccountPlan = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AccountPlanPatch }) => mgmt<Account>(`accounts/${id}`, { method: "PATCH", body }),
    onSuccess: (account) => qc.setQueryData<Account[]>(queryKeys.accounts, (list) => replaceAccount(list, account)),
  });
};

/** The operator grants credits; the account's balances in the list update from the answer. */
export const useGrantCredits = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CreditGrantCreate }) => mgmt<CreditGrant>(`accounts/${id}/credits`, { method: "POST", body }),
    onSuccess: (grant) => {
      qc.setQueryData<Account[]>(queryKeys.accounts, (list) => list?.map((a) => (a.id === grant.account ? { ...a, credits: grant.balances } : a)));
      return Promise.all([qc.invalidateQueries({ queryKey: queryKeys.account }), qc.invalidateQueries({ queryKey: queryKeys.credits })]);
    },
  });
};
