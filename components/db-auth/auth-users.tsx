"use client";
// The Auth tab's users admin: the database's users with their state, a search, and per user: verify, disable or
// enable, mail a password reset, remove its second factor, end its sessions. Admins only (the routes are database:admin).
import { type FormEvent, useState } from "react";
import { type AuthUser, type AuthUserAction, useAuthUserAction, useAuthUsers } from "../api/use-db-auth";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { TextInput } from "../ui/field";
import { ErrorState, FormError, LoadingState } from "../ui/states";

const DONE: Record<AuthUserAction, string> = {
  verify: "marked verified",
  disable: "disabled: its sessions ended",
  enable: "enabled",
  "send-reset": "sent a password reset mail",
  "reset-mfa": "its authenticator removed",
  "end-sessions": "signed out everywhere",
};

const UserActions = ({ user, run, pending }: { user: AuthUser; run: (action: AuthUserAction) => void; pending: boolean }) => (
  <div className="flex flex-wrap gap-1.5">
    {!user.verified && (
      <Button size="sm" onClick={() => run("verify")} disabled={pending}>
        Verify
      </Button>
    )}
    {user.disabled ? (
      <Button size="sm" onClick={() => run("enable")} disabled={pending}>
        Enable
      </Button>
    ) : (
      <Button size="sm" variant="danger" onClick={() => run("disable")} disabled={pending}>
        Disable
      </Button>
    )}
    <Button size="sm" onClick={() => run("send-reset")} disabled={pending || user.disabled}>
      Send reset
    </Button>
    {user.mfa && (
      <Button size="sm" onClick={() => run("reset-mfa")} disabled={pending}>
        Reset MFA
      </Button>
    )}
    <Button size="sm" onClick={() => run("end-sessions")} disabled={pending || user.sessions === 0}>
      End sessions
    </Button>
  </div>
);

export const AuthUsers = ({ instance }: { instance: string }) => {
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const after = pages[pages.length - 1];
  const users = useAuthUsers(instance, q, after, true);
  const action = useAuthUserAction(instance);
  const [done, setDone] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQ(search.trim());
    setPages([null]);
  };
  const run = (user: AuthUser) => (kind: AuthUserAction) => {
    setDone(undefined);
    action.mutate({ id: user.id, action: kind }, { onSuccess: () => setDone(`${user.login}: ${DONE[kind]}.`) });
  };
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" aria-labelledby="auth-users-title">
      <h2 id="auth-users-title" className="text-sm font-semibold text-slate-900">Users</h2>
      <p className="mt-1 text-sm text-slate-600">The users table&apos;s accounts: verify an address, disable or enable a user, mail a password reset, remove its second factor, or end its sessions.</p>
      <form onSubmit={submit} role="search" className="mt-3 flex flex-wrap items-center gap-2">
        <label htmlFor="auth-users-search" className="sr-only">Search users by login or email</label>
        <TextInput id="auth-users-search" type="search" placeholder="Search by login or email" value={search} onChange={(e) => setSearch(e.target.value)} className="w-64" />
        <Button type="submit">Search</Button>
      </form>
      <div className="mt-2 min-h-5 text-sm" aria-live="polite">
        {done && <span className="text-emerald-700">{done}</span>}
      </div>
      <FormError error={action.error} />
      {users.isLoading ? (
        <LoadingState label="Loading users…" />
      ) : users.error ? (
        <ErrorState error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data!.users.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{q ? `No user matches “${q}”.` : "No users yet."}</p>
      ) : (
        <div tabIndex={0} role="region" aria-label="Users, scrollable" className="relative mt-3 overflow-x-auto rounded border border-slate-200">
          <table className="min-w-full text-left text-xs">
            <thead className="bg-slate-50 text-slate-600">
              <tr>
                {["id", "login", "state", "providers", "MFA", "sessions", "created", "actions"].map((c) => (
                  <th key={c} className="px-2 py-1.5 font-medium">{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {users.data!.users.map((u) => (
                <tr key={u.id} className="border-t border-slate-100 align-top" data-testid={`auth-user-${u.id}`}>
                  <td className="px-2 py-1.5 font-mono">{u.id}</td>
                  <td className="px-2 py-1.5 font-mono whitespace-nowrap">{u.login}</td>
                  <td className="px-2 py-1.5">
                    <div className="flex flex-wrap gap-1">
                      <Badge tone={u.verified ? "green" : "amber"}>{u.verified ? "verified" : "unverified"}</Badge>
                      {u.disabled && <Badge tone="red">disabled</Badge>}
                    </div>
                  </td>
                  <td className="px-2 py-1.5">{u.providers.join(", ") || "—"}</td>
                  <td className="px-2 py-1.5">{u.mfa ? "on" : "—"}</td>
                  <td className="px-2 py-1.5">{u.sessions}</td>
                  <td className="px-2 py-1.5 whitespace-nowrap">{u.created_at.slice(0, 10)}</td>
                  <td className="px-2 py-1.5">
                    <UserActions user={u} run={run(u)} pending={action.isPending} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(pages.length > 1 || users.data?.next_after) && (
        <div className="mt-3 flex gap-2">
          <Button size="sm" onClick={() => setPages(pages.slice(0, -1))} disabled={pages.length === 1}>
            Previous
          </Button>
          <Button size="sm" onClick={() => setPages([...pages, users.data!.next_after!])} disabled={!users.data?.next_after}>
            Next
          </Button>
        </div>
      )}
    </section>
  );
};
