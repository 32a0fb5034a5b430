"use client";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { useEndAllSessions } from "../api/use-account";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";

/** Ends every session of the account (a lost laptop, a shared computer); keys are not sessions and stay. */
export const SignOutEverywhere = () => {
  const end = useEndAllSessions();
  const [open, setOpen] = useState(false);
  const confirm = () =>
    end.mutate(undefined, {
      onSuccess: async () => {
        await signOut({ redirect: false });
        window.location.assign("/login");
      },
    });
  return (
    <section aria-labelledby="sessions-title" className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <h2 id="sessions-title" className="text-sm font-semibold text-slate-900">
        Sessions
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Signed in on another computer, or lost one? Sign out everywhere ends every session of this account, this one included. Changing your password ends
        the others too. Secret keys are not sessions: revoke them under API keys.
      </p>
      <div className="mt-3">
        <Button type="button" onClick={() => setOpen(true)}>
          Sign out everywhere
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title="Sign out everywhere?"
        consequences={<p>Every browser signed in to this account is signed out, this one included. You sign in again with your password.</p>}
        confirmLabel="Sign out everywhere"
        onConfirm={confirm}
        pending={end.isPending}
        error={end.error}
      />
    </section>
  );
};
