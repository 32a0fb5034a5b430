"use client";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { fieldErrors } from "../api/api-error";
import { ROLE_SUMMARY } from "../api/can";
import type { Invite, InviteCreate, MemberRole } from "../api/types";
import { MEMBER_ROLES } from "../api/use-plans";
import { useCreateInvite } from "../api/use-team";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Field, SelectInput, TextInput } from "../ui/field";
import { FormError } from "../ui/states";

type Props = {
  workspace?: number;
  /** The roles the plan lets the owner give; undefined when unknown (someone else's plan: the API decides). */
  allowedRoles?: readonly MemberRole[];
};

/** A whole number from a text input, or undefined when empty (the API's default then applies). */
const wholeNumber = (text: string) => (text.trim() === "" ? undefined : Number(text));

/** The link just made: copy it, and whether it was emailed. */
const NewLink = ({ invite }: { invite: Invite }) => (
  <div role="status" aria-label="New invite link" className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-3 text-sm text-emerald-900">
    <p className="font-medium">
      Invite link for the {invite.role} role
      {invite.max_uses > 1 ? ` (${invite.max_uses} uses)` : ""}:
    </p>
    <div className="mt-2 flex items-center gap-2">
      <code data-testid="invite-url" className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 font-mono text-xs text-slate-800 ring-1 ring-emerald-200">
        {invite.url}
      </code>
      <CopyButton text={invite.url} label="Copy link" />
    </div>
    <p className="mt-2 text-xs">
      {invite.email
        ? invite.email_sent
          ? `Emailed to ${invite.email}.`
          : `Not emailed to ${invite.email}: this server has no mail set up (SMTP_URL), or it refused. Send the link yourself.`
        : "Send it to the person you invite: whoever opens it can join until it expires."}
    </p>
  </div>
);

/** Invite someone: role, optional email, expiry and uses; the new link shows at once with a copy button. */
export const InviteForm = ({ workspace, allowedRoles }: Props) => {
  const create = useCreateInvite(workspace);
  const offered = MEMBER_ROLES.filter((r) => allowedRoles === undefined || allowedRoles.includes(r));
  const [role, setRole] = useState<MemberRole>(offered[0] ?? "viewer");
  const [email, setEmail] = useState("");
  const [hours, setHours] = useState("168");
  const [uses, setUses] = useState("1");
  const errors = fieldErrors(create.error);
  if (offered.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        Your plan lets you give no roles, so you cannot invite anyone yet.{" "}
        <Link href="/settings/plan" className="font-medium text-indigo-700 hover:underline">
          Open Plan &amp; usage
        </Link>
      </p>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: InviteCreate = { role, expires_in_hours: wholeNumber(hours), max_uses: wholeNumber(uses) };
    if (email.trim()) body.email = email.trim();
    create.mutate(body, { onSuccess: () => setEmail("") });
  };
  return (
    <form onSubmit={submit} aria-label="Invite someone" noValidate>
      <div className="flex flex-wrap items-start gap-3">
        <Field className="w-36" label="Role" htmlFor="invite-role" error={errors.role}>
          <SelectInput id="invite-role" value={role} onChange={(e) => setRole(e.target.value as MemberRole)}>
            {offered.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </SelectInput>
        </Field>
        <Field className="w-64" label="Email (optional)" htmlFor="invite-email" error={errors.email}>
          <TextInput id="invite-email" type="email" value={email} placeholder="ana@example.com" onChange={(e) => setEmail(e.target.value)} invalid={!!errors.email} />
        </Field>
        <Field className="w-32" label="Expires in (hours)" htmlFor="invite-hours" error={errors.expires_in_hours}>
          <TextInput id="invite-hours" type="number" min={1} value={hours} onChange={(e) => setHours(e.target.value)} invalid={!!errors.expires_in_hours} />
        </Field>
        <Field className="w-28" label="Max uses" htmlFor="invite-uses" error={errors.max_uses}>
          <TextInput id="invite-uses" type="number" min={1} value={uses} onChange={(e) => setUses(e.target.value)} invalid={!!errors.max_uses} />
        </Field>
        <Button type="submit" variant="primary" className="mt-5" pending={create.isPending}>
          Create invite link
        </Button>
      </div>
      <p className="mt-2 text-xs text-slate-500">{ROLE_SUMMARY[role]}</p>
      {Object.keys(errors).length === 0 && (
        <div className="mt-3">
          <FormError error={create.error} />
        </div>
      )}
      {create.data && !create.isPending && <NewLink invite={create.data} />}
    </form>
  );
};
