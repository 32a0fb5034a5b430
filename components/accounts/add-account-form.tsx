"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { useAddAccount } from "../api/use-account";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

/** The operator creates an account for someone (whatever the sign-up setting). */
export const AddAccountForm = () => {
  const add = useAddAccount();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const errors = fieldErrors(add.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { email, password },
      {
        onSuccess: () => {
          setEmail("");
          setPassword("");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" noValidate>
      <h2 className="text-sm font-semibold text-slate-900">Create an account</h2>
      <p className="mt-1 text-sm text-slate-600">Share the email and password with its owner; they can sign in at once.</p>
      <div className="mt-4 flex flex-wrap items-start gap-3">
        <Field className="w-64" label="Email" htmlFor="new-account-email" error={errors.email}>
          <TextInput id="new-account-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} invalid={!!errors.email} autoComplete="off" />
        </Field>
        <Field className="w-56" label="Initial password" htmlFor="new-account-password" hint="8 to 72 characters." error={errors.password}>
          <TextInput id="new-account-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} invalid={!!errors.password} autoComplete="new-password" />
        </Field>
        <Button type="submit" variant="primary" className="mt-5" pending={add.isPending}>
          Create account
        </Button>
      </div>
      {add.isSuccess && <p className="mt-2 text-sm text-emerald-700">Account {add.data.email} created.</p>}
      {!errors.email && !errors.password && <div className="mt-2"><FormError error={add.error} /></div>}
    </form>
  );
};
