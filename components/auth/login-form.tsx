"use client";
import { signIn, useSession } from "next-auth/react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { ACCOUNT_DISABLED_ERROR, SIGN_IN_LIMITED_ERROR } from "@/lib/auth/sign-in-errors";
import { useSignupStatus } from "../api/use-account";
import { Button } from "../ui/button";
import { Field, TextInput } from "../ui/field";
import { LoadingState } from "../ui/states";
import { AuthCard } from "./auth-card";

/** Where to go after sign-in: `?callbackUrl=` when it is a path on this site (never another origin). */
const landingOf = (raw: string | null) => (raw && raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\") ? raw : "/databases");

export const LoginForm = () => {
  const router = useRouter();
  const landing = landingOf(useSearchParams().get("callbackUrl"));
  const fromInvite = landing.startsWith("/invite/");
  const { status } = useSession();
  const signup = useSignupStatus();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const firstRun = signup.data?.first_run === true;

  useEffect(() => {
    if (firstRun) router.replace("/setup");
    else if (status === "authenticated") router.replace(landing);
  }, [firstRun, status, router, landing]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setFailed(null);
    const result = await signIn("credentials", { email, password, redirect: false });
    if (result?.ok) router.replace(landing);
    else {
      setFailed(
        result?.error === ACCOUNT_DISABLED_ERROR
          ? "This account is disabled. Ask the operator of this install to enable it again."
          : result?.error === SIGN_IN_LIMITED_ERROR
            ? "Too many failed sign-ins for this email or from this network. Try again in 15 minutes."
            : "That email and password do not match an account.",
      );
      setPending(false);
    }
  };

  const footer = fromInvite ? (
    <>
      No account yet?{" "}
      <Link className="font-medium text-indigo-600 hover:underline" href={landing}>
        Create one from the invite
      </Link>
    </>
  ) : signup.data?.signup === "open" ? (
    <>
      New here?{" "}
      <Link className="font-medium text-indigo-600 hover:underline" href="/signup">
        Create an account
      </Link>
    </>
  ) : (
    "Accounts on this install are created by its operator."
  );

  return (
    <AuthCard title="Sign in to Tabula" description="Manage your databases, schemas, data and API keys." footer={signup.data && footer}>
      {firstRun || status === "authenticated" ? (
        <LoadingState />
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <Field label="Email" htmlFor="email">
            <TextInput id="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Field>
          <Field label="Password" htmlFor="password">
            <TextInput id="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </Field>
          {failed && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {failed}
            </p>
          )}
          <Button type="submit" variant="primary" className="w-full" pending={pending}>
            Sign in
          </Button>
        </form>
      )}
    </AuthCard>
  );
};
