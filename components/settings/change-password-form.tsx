"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useChangeOwnPassword } from "../api/use-account";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

/** The signed-in account's new password, confirmed by the current one (the server checks it: 422 on current_password). */
export const ChangePasswordForm = () => {
  const change = useChangeOwnPassword();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const errors = fieldErrors(change.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(next !== confirm);
    if (next !== confirm) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent("");
          setNext("");
          setConfirm("");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Change your password" className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <h2 className="text-sm font-semibold text-slate-900">Change your password</h2>
      <p className="mt-1 text-sm text-slate-600">You stay signed in here; your other sessions end. Next time, sign in with the new password.</p>
      <div className="mt-4 grid max-w-md gap-3">
        <Field label="Current password" htmlFor="current-password" error={errors.current_password}>
          <TextInput id="current-password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} invalid={!!errors.current_password} />
        </Field>
        <Field label="New password" htmlFor="new-password" hint="8 to 72 characters." error={errors.new_password}>
          <TextInput id="new-password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} invalid={!!errors.new_password} />
        </Field>
        <Field label="Confirm new password" htmlFor="confirm-new-password" error={mismatch ? "The two new passwords differ." : undefined}>
          <TextInput id="confirm-new-password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} invalid={mismatch} />
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" pending={change.isPending}>
          Change password
        </Button>
        {change.isSuccess && (
          <p role="status" className="text-sm text-emerald-700">
            Password changed.
          </p>
        )}
      </div>
      {!errors.current_password && !errors.new_password && (
        <div className="mt-3">
          <FormError error={change.error} />
        </div>
      )}
    </form>
  );
};
