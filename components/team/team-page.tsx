"use client";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { can, whyNot } from "../api/can";
import type { Account } from "../api/types";
import { useAccount } from "../api/use-account";
import { useWorkspaces } from "../api/use-team";
import { rolesText } from "../plans/plan-wording";
import { UsageMeter } from "../plans/usage-meter";
import { SelectInput } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ErrorState, LoadingState } from "../ui/states";
import { InviteForm } from "./invite-form";
import { InvitesTable } from "./invites-table";
import { MembersTable } from "./members-table";
import { WorkspacesList } from "./workspaces-list";

const Section = ({ title, children, note }: { title: string; children: ReactNode; note?: ReactNode }) => (
  <section className="space-y-3" aria-label={title}>
    <div>
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {note && <p className="mt-0.5 text-sm text-slate-600">{note}</p>}
    </div>
    {children}
  </section>
);

const Card = ({ children }: { children: ReactNode }) => <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">{children}</div>;

/** Your plan's caps on the team: seats used (members plus unused invite seats) and the roles you may give. */
const TeamLimits = ({ account }: { account: Account }) => (
  <Card>
    <div className="grid gap-6 md:grid-cols-2">
      <UsageMeter
        label="Invitees"
        used={account.usage.invitees}
        limit={account.plan.max_invitees}
        detail={`Members plus unused invite seats, on the ${account.plan.name} plan.`}
      />
      <div className="text-sm">
        <p className="font-medium text-slate-900">Roles you may give</p>
        <p className="mt-1 text-slate-700" data-testid="allowed-roles">
          {rolesText(account.plan.roles)}
        </p>
        <Link href="/settings/plan" className="mt-1.5 inline-block text-xs font-medium text-indigo-700 hover:underline">
          Plan &amp; usage
        </Link>
      </div>
    </div>
  </Card>
);

/** Developer settings → Team: your workspace's members and invites, or those of a workspace you belong to. */
export const TeamPage = () => {
  const router = useRouter();
  const params = useSearchParams();
  const account = useAccount();
  const workspaces = useWorkspaces();
  const error = account.error ?? workspaces.error;
  if (error) return <ErrorState error={error} title="Could not load your team" onRetry={() => (account.refetch(), workspaces.refetch())} />;
  if (!account.data || !workspaces.data) return <LoadingState label="Loading your team…" />;
  const me = account.data;
  const other = workspaces.data.find((w) => String(w.owner.id) === params.get("workspace"));
  const owner = other?.owner ?? { id: me.id, email: me.email };
  const manage = can(other?.role ?? "owner", "admin");
  // Your own plan decides what you may give at home; elsewhere it is the owner's plan, which the API applies.
  const allowedRoles = other ? undefined : me.plan.roles;
  const switcher = workspaces.data.length > 0 && (
    <SelectInput
      aria-label="Workspace"
      className="w-96"
      value={other ? String(other.owner.id) : ""}
      onChange={(e) => router.replace(e.target.value ? `/settings/team?workspace=${e.target.value}` : "/settings/team")}
    >
      <option value="">My workspace</option>
      {workspaces.data.map((w) => (
        <option key={w.owner.id} value={w.owner.id}>
          {w.owner.email}’s workspace ({w.role})
        </option>
      ))}
    </SelectInput>
  );
  return (
    <div className="max-w-5xl space-y-8">
      <PageHeader
        title="Team"
        description={
          other ? (
            <>
              The workspace of <strong className="text-slate-900">{owner.email}</strong>, where you are {other.role === "viewer" ? "a" : "an"} {other.role}.
            </>
          ) : (
            "Who can reach the databases of your workspace, and as what. Members see them under “Shared with me”."
          )
        }
        actions={switcher}
      />
      {!other && <TeamLimits account={me} />}
      <Section title="Members" note={manage ? undefined : `${whyNot("admin")} You can see who is here.`}>
        <MembersTable workspace={other?.owner.id} owner={owner} me={me.id} manage={manage} allowedRoles={allowedRoles} />
      </Section>
      {manage && (
        <>
          <Section title="Invite someone" note="Each invite is a link: whoever opens it can create an account (even while sign-up is closed) or sign in, and join with its role.">
            <Card>
              <InviteForm key={owner.id} workspace={other?.owner.id} allowedRoles={allowedRoles} />
            </Card>
          </Section>
          <Section title="Invites">
            <InvitesTable workspace={other?.owner.id} />
          </Section>
        </>
      )}
      <Section title="Workspaces you belong to">
        <WorkspacesList workspaces={workspaces.data} />
      </Section>
    </div>
  );
};
