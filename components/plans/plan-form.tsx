"use client";
import { type FormEvent, type ReactNode, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { Plan, PlanPut } from "../api/types";
import { MEMBER_ROLES, usePutPlan } from "../api/use-plans";
import { Button } from "../ui/button";
import { Checkbox } from "../ui/field";
import { FormError } from "../ui/states";
import { LimitInput } from "./limit-input";
import { draftOf, type PlanDraft, readDraft } from "./plan-draft";
import { PLAN_LIMITS } from "./plan-wording";

type Props = {
  /** The plan's name, or undefined for a new plan (then `nameField` asks for it and `checkName` vets it). */
  name?: string;
  initial: Plan | PlanPut;
  title: ReactNode;
  subtitle?: ReactNode;
  nameField?: (error: string | undefined) => ReactNode;
  checkName?: () => { name: string; problem?: string };
  onSaved?: (plan: Plan) => void;
};

/** Every limit of one plan, saved together with PUT /plans/{name}; problems show on their fields. */
export const PlanForm = ({ name, initial, title, subtitle, nameField, checkName, onSaved }: Props) => {
  const put = usePutPlan();
  const [draft, setDraft] = useState<PlanDraft>(() => draftOf(initial));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const errors = { ...fieldErrors(put.error), ...problems };
  const idOf = (field: string) => `plan-${name ?? "new"}-${field}`;
  const titleId = idOf("title");

  const edit = (next: PlanDraft) => {
    setDraft(next);
    put.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const named = checkName?.() ?? { name: name ?? "" };
    const read = readDraft(draft);
    const found = { ...read.problems, ...(named.problem ? { name: named.problem } : {}) };
    setProblems(found);
    if (!read.body || named.problem) return;
    put.mutate({ name: named.name, limits: read.body }, { onSuccess: (plan) => onSaved?.(plan) });
  };
  const toggleRole = (role: (typeof MEMBER_ROLES)[number], on: boolean) =>
    edit({ ...draft, roles: MEMBER_ROLES.filter((r) => (r === role ? on : draft.roles.includes(r))) });
  const claimed = ["name", "roles", "custom_domain", ...PLAN_LIMITS.map((l) => l.key)].some((f) => errors[f]);

  return (
    <form onSubmit={submit} aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" noValidate>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {subtitle && <p className="text-xs text-slate-500">{subtitle}</p>}
      </div>
      {nameField && <div className="mt-4">{nameField(errors.name)}</div>}
      <div className="mt-4 grid gap-x-6 gap-y-4 sm:grid-cols-2">
        {PLAN_LIMITS.map((l) => (
          <LimitInput
            key={l.key}
            id={idOf(l.key)}
            label={l.label}
            hint={l.hint}
            error={errors[l.key]}
            value={draft.limits[l.key]}
            onChange={(value) => edit({ ...draft, limits: { ...draft.limits, [l.key]: value } })}
          />
        ))}
      </div>
      <div className="mt-5 flex flex-wrap gap-x-10 gap-y-4">
        <fieldset>
          <legend className="mb-1.5 text-xs font-medium text-slate-700">Member roles it may give</legend>
          <div className="flex gap-4">
            {MEMBER_ROLES.map((role) => (
              <Checkbox key={role} label={role} checked={draft.roles.includes(role)} onChange={(e) => toggleRole(role, e.target.checked)} />
            ))}
          </div>
          {errors.roles && <p className="field-error mt-1 text-xs text-red-600">{errors.roles}</p>}
        </fieldset>
        <fieldset>
          <legend className="mb-1.5 text-xs font-medium text-slate-700">API docs</legend>
          <Checkbox label="Custom domain" checked={draft.custom_domain} onChange={(e) => edit({ ...draft, custom_domain: e.target.checked })} />
          {errors.custom_domain && <p className="field-error mt-1 text-xs text-red-600">{errors.custom_domain}</p>}
        </fieldset>
      </div>
      <div className="mt-5 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
        <Button type="submit" variant="primary" pending={put.isPending}>
          {name ? "Save" : "Create plan"}
        </Button>
        {put.isSuccess && (
          <p role="status" className="text-sm text-emerald-700">
            {name ? `Saved: accounts on ${name} get these limits from their next request.` : `Plan ${put.data.name} created.`}
          </p>
        )}
        {claimed ? (
          <p className="text-sm text-red-700">Fix the fields marked in red; nothing was saved.</p>
        ) : (
          <div className="min-w-0 flex-1">
            <FormError error={put.error} />
          </div>
        )}
      </div>
    </form>
  );
};
