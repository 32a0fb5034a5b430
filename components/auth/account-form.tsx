"use client";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

const MIN_PASSWORD = 8;

type Props = {
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: { email: string; password: string }) => void;
  /** The address to start with (an invite's). */
  initialEmail?: string;
};

/** Email, password and its confirmation; the API's field errors show under the matching input. */
export const AccountForm = ({ submitLabel, pending, error, onSubmit, initialEmail = "" }: Props) => {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  // Said once the field is left or the form submitted, not at the first key typed.
  const [checkLength, setCheckLength] = useState(false);
  const short = password.length < MIN_PASSWORD ? `The password needs at least ${MIN_PASSWORD} characters (it has ${password.length}).` : undefined;
  const errors = fieldErrors(error);
  const passwordError = (checkLength && short) || errors.password;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setMismatch(password !== confirm);
    setCheckLength(true);
    if (password === confirm && !short) onSubmit({ email, password });
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Email" htmlFor="email" error={errors.email}>
        <TextInput id="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} invalid={!!errors.email} required />
      </Field>
      <Field label="Password" htmlFor="password" hint="8 to 72 characters." error={passwordError || undefined}>
        <TextInput
          id="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => password && setCheckLength(true)}
          invalid={!!passwordError}
          aria-describedby={passwordError ? "password-error" : undefined}
          required
        />
      </Field>
      <Field label="Confirm password" htmlFor="confirm" error={mismatch ? "The two passwords differ." : undefined}>
        <TextInput id="confirm" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} invalid={mismatch} required />
      </Field>
      {Object.keys(errors).length === 0 && <FormError error={error} />}
      <Button type="submit" variant="primary" className="w-full" pending={pending}>
        {submitLabel}
      </Button>
    </form>
  );
};
