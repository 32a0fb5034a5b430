"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import type { Account, CreditGrant, CreditKind } from "../api/types";
import { CREDIT_KINDS, useGrantCredits } from "../api/use-plans";
import { creditsOf, KIND_NOUNS } from "../plans/plan-wording";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";
import { Field, SelectInput, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

const KIND_HINTS: Record<CreditKind, string> = {
  databases: "Each raises the account's database limit by one for good, when it reaches the limit.",
  ai_calls: "Each pays for one AI call after the month's allowance is used.",
};

type Props = { account: Account | null; onClose: () => void; onGranted: (grant: CreditGrant, account: Account) => void };

/** The operator grants one-time credits to an account; a source already granted adds nothing, and says so. */
export const GrantCreditsDialog = ({ account, onClose, onGranted }: Props) => {
  const grant = useGrantCredits();
  const [kind, setKind] = useState<CreditKind>("databases");
  const [amount, setAmount] = useState("1");
  const [source, setSource] = useState("");
  const [note, setNote] = useState("");
  const errors = fieldErrors(grant.error);
  const duplicate = grant.data?.duplicate ? grant.data : undefined;
  const close = () => {
    setKind("databases");
    setAmount("1");
    setSource("");
    setNote("");
    grant.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!account) return;
    const body = { kind, amount: Number(amount), source: source.trim() || undefined, note: note.trim() || undefined };
    grant.mutate(
      { id: account.id, body },
      {
        onSuccess: (result) => {
          if (result.duplicate) return;
          onGranted(result, account);
          close();
        },
      },
    );
  };
  return (
    <Dialog open={account !== null} onClose={close} title="Grant credits" description={account && <>To {account.email}. Credits never expire while the account is active.</>}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Kind" htmlFor="grant-kind" hint={KIND_HINTS[kind]} error={errors.kind}>
            <SelectInput id="grant-kind" value={kind} onChange={(e) => (setKind(e.target.value as CreditKind), grant.reset())}>
              {CREDIT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_NOUNS[k].title}
                </option>
              ))}
            </SelectInput>
          </Field>
          <Field label="Amount" htmlFor="grant-amount" error={errors.amount}>
            <TextInput id="grant-amount" type="number" min={1} step={1} value={amount} onChange={(e) => setAmount(e.target.value)} invalid={!!errors.amount} />
          </Field>
        </div>
        <Field label="Source (optional)" htmlFor="grant-source" hint="The purchase, e.g. an order id: the same source is granted once." error={errors.source}>
          <TextInput id="grant-source" value={source} onChange={(e) => (setSource(e.target.value), grant.reset())} invalid={!!errors.source} autoComplete="off" />
        </Field>
        <Field label="Note (optional)" htmlFor="grant-note" error={errors.note}>
          <TextInput id="grant-note" value={note} onChange={(e) => setNote(e.target.value)} invalid={!!errors.note} autoComplete="off" />
        </Field>
        {duplicate && (
          <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Already granted: nothing added. Source <code className="font-mono">{duplicate.entry.source}</code> gave{" "}
            {creditsOf(duplicate.entry.amount, duplicate.entry.kind)}
            {duplicate.account === account?.id ? "" : ` to another account (#${duplicate.account})`} on{" "}
            {new Date(duplicate.entry.created_at).toLocaleDateString()}.
          </p>
        )}
        {!errors.kind && !errors.amount && !errors.source && !errors.note && <FormError error={grant.error} />}
        <DialogActions>
          <Button onClick={close}>{duplicate ? "Close" : "Cancel"}</Button>
          <Button type="submit" variant="primary" pending={grant.isPending}>
            Grant credits
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
