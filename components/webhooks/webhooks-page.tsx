"use client";
import { useState } from "react";
import { useDatabase, useDatabaseAccess } from "../api/use-databases";
import { type Webhook, useWebhookMutations, useWebhooks } from "../api/use-webhooks";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { EmptyState, ErrorState, FormError, LoadingState } from "../ui/states";
import { DeliveryLog } from "./delivery-log";
import { WebhookForm } from "./webhook-form";

const WebhookCard = ({ instance, hook, selected, onSelect }: { instance: string; hook: Webhook; selected: boolean; onSelect: () => void }) => {
  const { update, remove, test } = useWebhookMutations(instance);
  return (
    <li className={`space-y-2 rounded-lg border bg-white p-4 shadow-xs ${selected ? "border-indigo-400" : "border-slate-200"}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={hook.active ? (hook.failing_since ? "amber" : "green") : "red"}>{hook.active ? (hook.failing_since ? "failing" : "active") : "disabled"}</Badge>
        <span className="min-w-0 truncate font-mono text-sm text-slate-900">{hook.url}</span>
      </div>
      <p className="text-xs text-slate-700">
        Tables: {hook.tables?.join(", ") ?? "all"} · Actions: {hook.actions?.join(", ") ?? "all"}
        {hook.failing_since && ` · failing since ${new Date(hook.failing_since).toLocaleString()}`}
      </p>
      {hook.disabled_reason && <p className="text-xs text-red-700">{hook.disabled_reason}</p>}
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
        Signing secret <code className="rounded bg-slate-100 px-1 font-mono">{hook.secret.slice(0, 12)}…</code>
        <CopyButton text={hook.secret} label="Copy secret" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onSelect} aria-pressed={selected}>
          Deliveries
        </Button>
        <Button size="sm" onClick={() => test.mutate(hook.id, { onSuccess: onSelect })} pending={test.isPending}>
          Send test event
        </Button>
        <Button size="sm" onClick={() => update.mutate({ id: hook.id, body: { active: !hook.active } })}>
          {hook.active ? "Disable" : "Enable"}
        </Button>
        <Button size="sm" variant="danger" onClick={() => remove.mutate(hook.id)}>
          Delete
        </Button>
      </div>
      {test.data && (
        <p role="status" className="text-xs text-slate-800">
          Test: {test.data.status === "delivered" ? `delivered (HTTP ${test.data.response_status}, ${test.data.duration_ms} ms)` : `failed: ${test.data.error}`}
        </p>
      )}
      {(update.error || remove.error || test.error) && <FormError error={update.error ?? remove.error ?? test.error} />}
    </li>
  );
};

/**
 * The Webhooks tab: each change event POSTed, signed (Standard Webhooks), to your endpoints, retried for about
 * a day; a test event on demand and the deliveries log with each attempt's request and response. Admins only.
 */
export const WebhooksPage = ({ instance }: { instance: string }) => {
  const database = useDatabase(instance);
  const { admin } = useDatabaseAccess(instance);
  const hooks = useWebhooks(instance);
  const [selected, setSelected] = useState<number>();
  if (!admin) return <EmptyState title="Webhooks are for admins">The owner and admins of this database manage its webhooks.</EmptyState>;
  if (database.isLoading || hooks.isLoading) return <LoadingState label="Loading webhooks…" />;
  if (database.error || hooks.error) return <ErrorState error={database.error ?? hooks.error} onRetry={() => hooks.refetch()} />;
  const list = hooks.data ?? [];
  const shown = list.find((h) => h.id === selected) ?? list[0];
  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-base font-semibold text-slate-900">Webhooks</h2>
        <p className="text-sm text-slate-600">
          Every committed insert, update and delete is POSTed as JSON to your endpoint, signed per Standard Webhooks (<code className="font-mono">webhook-signature</code>) and retried for
          about a day. Verify it with the secret; docs/events.md in the repository has a ten-line receiver.
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        <div className="space-y-4">
          <WebhookForm instance={instance} tables={database.data!.tables} />
          {list.length === 0 ? (
            <EmptyState title="No webhooks yet">Add an endpoint above.</EmptyState>
          ) : (
            <ul aria-label="Webhooks" className="space-y-3">
              {list.map((h) => (
                <WebhookCard key={h.id} instance={instance} hook={h} selected={shown?.id === h.id} onSelect={() => setSelected(h.id)} />
              ))}
            </ul>
          )}
        </div>
        {shown && (
          <section aria-label="Deliveries of the selected webhook" className="space-y-2">
            <h3 className="truncate text-sm font-semibold text-slate-900">Deliveries to {shown.url}</h3>
            <DeliveryLog instance={instance} webhookId={shown.id} />
          </section>
        )}
      </div>
    </div>
  );
};
