"use client";
import { signOut, useSession } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { ApiRequestError } from "../api/api-error";
import { ROLE_SUMMARY } from "../api/can";
import type { InviteInfo } from "../api/types";
import { useAcceptInvite, useInviteInfo } from "../api/use-team";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ErrorState, FormError, LoadingState } from "../ui/states";
import { AccountForm } from "./account-form";
import { AuthCard } from "./auth-card";
import { useSignUpAndIn } from "./use-sign-up-and-in";

const SHARED = "/databases?scope=shared";

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

const DEAD: Record<Exclude<InviteInfo["status"], "pending">, (info: InviteInfo) => string> = {
  expired: (i) => `It expired on ${formatDate(i.expires_at)}.`,
  revoked: () => "It was revoked.",
  used_up: () => "It was already used.",
};

const linkClass = "font-medium text-indigo-600 hover:underline";

/** Who invites you, as what, and what that role may do. */
const Summary = ({ info }: { info: InviteInfo }) => (
  <section className="rounded-md bg-slate-50 px-3 py-2.5 text-sm text-slate-700" aria-label="Invite">
    <p>
      <strong className="text-slate-900">{info.workspace.owner.email}</strong> invites you to their workspace as <Badge tone="indigo">{info.role}</Badge>
    </p>
    <p className="mt-1 text-xs text-slate-500">
      {ROLE_SUMMARY[info.role]} The link works until {formatDate(info.expires_at)}.
    </p>
  </section>
);

/** Signed in: accept as the current account, or sign out to use another one. */
const AcceptAsMe = ({ token, email }: { token: string; email: string }) => {
  const router = useRouter();
  const accept = useAcceptInvite();
  const member = accept.error instanceof ApiRequestError && accept.error.status === 409;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        You are signed in as
        <strong className="block truncate text-slate-900" title={email}>
          {email}
        </strong>
      </p>
      <FormError error={accept.error} />
      {member && (
        <Link href={SHARED} className={`block text-sm ${linkClass}`}>
          Open Shared with me
        </Link>
      )}
      <Button variant="primary" className="w-full" pending={accept.isPending || accept.isSuccess} onClick={() => accept.mutate(token, { onSuccess: () => router.push(SHARED) })}>
        Accept invite
      </Button>
      <button type="button" className="w-full text-center text-sm text-slate-600 hover:text-slate-900" onClick={() => void signOut({ redirect: false })}>
        Not you? Sign out
      </button>
    </div>
  );
};

/** `/invite/{token}`: the page an invite link opens, signed in or not. */
export const InvitePage = ({ token }: { token: string }) => {
  const info = useInviteInfo(token);
  const session = useSession();
  // Signed out: an account made from the link (sign-up may be closed) joins the workspace at once.
  const signUp = useSignUpAndIn({ invite: token, next: SHARED });
  const signingUp = signUp.isPending || signUp.isSuccess;
  const signInHref = `/login?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`;
  if (info.isLoading || session.status === "loading") {
    return (
      <AuthCard title="Opening your invite">
        <LoadingState />
      </AuthCard>
    );
  }
  if (info.error || !info.data) {
    const unknown = info.error instanceof ApiRequestError && info.error.status === 404;
    return (
      <AuthCard title="This invite link does not work">
        {unknown ? <p className="text-sm text-slate-600">No invite has this link. Check that you copied all of it, or ask for a new one.</p> : <ErrorState error={info.error} onRetry={() => info.refetch()} />}
      </AuthCard>
    );
  }
  const data = info.data;
  const owner = data.workspace.owner.email;
  if (data.status !== "pending") {
    return (
      <AuthCard title="This invite no longer works" footer={<Link className={linkClass} href="/login">Sign in</Link>}>
        <p className="text-sm text-slate-700" role="alert">
          {DEAD[data.status](data)} Ask {owner} for a new link.
        </p>
      </AuthCard>
    );
  }
  const email = signingUp ? undefined : session.data?.user?.email;
  return (
    <AuthCard
      title={`Join ${owner}’s workspace`}
      footer={
        !email && (
          <>
            I have an account:{" "}
            <Link className={linkClass} href={signInHref}>
              sign in
            </Link>
          </>
        )
      }
    >
      <div className="space-y-5">
        <Summary info={data} />
        {email ? (
          <AcceptAsMe token={token} email={email} />
        ) : (
          <div className="space-y-3">
            <p className="text-sm text-slate-600">Create your Tabula account to join:</p>
            <AccountForm submitLabel="Create account and join" pending={signingUp} error={signUp.error} onSubmit={signUp.mutate} initialEmail={data.email ?? undefined} />
          </div>
        )}
      </div>
    </AuthCard>
  );
};
