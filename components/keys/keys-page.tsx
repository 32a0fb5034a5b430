"use client";
import { useState } from "react";
import type { ApiKey } from "../api/types";
import { pickDashboardKey } from "../api/use-dashboard-key";
import { useKeys, useRegenerateKey, useRevokeKey } from "../api/use-keys";
import { KeyIcon, PlusIcon } from "../icons";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { PageHeader } from "../ui/page-header";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeySecret } from "./key-secret";
import { Table } from "../ui/table";

type Pending = { kind: "regenerate" | "revoke"; key: ApiKey } | null;

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Developer Settings → API keys: list, create, reveal/copy, regenerate, revoke. */
export const KeysPage = () => {
  const keys = useKeys();
  const regenerate = useRegenerateKey();
  const revoke = useRevokeKey();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [fresh, setFresh] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const dashboardKeyId = keys.data ? pickDashboardKey(keys.data)?.id : undefined;
  const mutation = pending?.kind === "revoke" ? revoke : regenerate;
  const close = () => {
    setPending(null);
    regenerate.reset();
    revoke.reset();
  };
  const confirm = () => {
    if (!pending) return;
    const { key } = pending;
    if (pending.kind === "revoke") {
      revoke.mutate(key.id, { onSuccess: () => (setNotice(`“${key.name}” was revoked: it no longer works anywhere.`), close()) });
    } else {
      regenerate.mutate(key.id, {
        onSuccess: () => {
          setFresh(key.id);
          setNotice(`“${key.name}” has a new secret, shown below. The old one is refused from now on.`);
          close();
        },
      });
    }
  };
  const createButton = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      <PlusIcon /> Create key
    </Button>
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description={
          <>
            Secret keys let apps call the data API (<code className="font-mono text-xs">x-api-key: sk_…</code> or{" "}
            <code className="font-mono text-xs">Authorization: Bearer sk_…</code>) and scripts call the management API.
          </>
        }
        actions={createButton}
      />
      {notice && (
        <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {notice}
        </p>
      )}
      {keys.isLoading ? (
        <LoadingState label="Loading your keys…" />
      ) : keys.error ? (
        <ErrorState error={keys.error} title="Could not load your keys" onRetry={() => keys.refetch()} />
      ) : !keys.data?.length ? (
        <EmptyState title="No API keys" action={createButton}>
          The dashboard creates one for itself when it needs to read your data; create others for your apps.
        </EmptyState>
      ) : (
        <Table label="API keys" columns={["Name", "Access", "Key", "Created", { label: "Actions", hidden: true }]}>
          {keys.data.map((k) => (
            <tr key={`${k.id}-${k.key}`} data-key-id={k.id} className={fresh === k.id ? "bg-emerald-50/60" : ""}>
              <td className="px-4 py-3">
                <div className="flex items-center gap-2 font-medium text-slate-900">
                  <KeyIcon className="size-4 text-slate-400" />
                  {k.name}
                </div>
                {k.id === dashboardKeyId && <p className="mt-0.5 text-xs text-slate-500">Used by this dashboard’s data browser and docs</p>}
              </td>
              <td className="px-4 py-3">{k.database ? <Badge tone="amber">{k.database} only</Badge> : <Badge tone="indigo">All databases</Badge>}</td>
              <td className="px-4 py-3">
                <KeySecret value={k.key} initiallyRevealed={fresh === k.id} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDate(k.created_at)}</td>
              <td className="px-4 py-3 text-right whitespace-nowrap">
                <Button size="sm" onClick={() => setPending({ kind: "regenerate", key: k })}>
                  Regenerate
                </Button>{" "}
                <Button size="sm" variant="ghost" className="text-red-600 hover:text-red-700" onClick={() => setPending({ kind: "revoke", key: k })}>
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </Table>
      )}

      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={(k) => (setFresh(k.id), setNotice(`“${k.name}” was created. Copy it into your app’s configuration.`))} />
      <ConfirmDialog
        open={pending !== null}
        onClose={close}
        title={pending?.kind === "revoke" ? `Revoke “${pending.key.name}”?` : `Regenerate “${pending?.key.name}”?`}
        consequences={
          pending?.kind === "revoke" ? (
            <>
              <p>The key stops working at once: every app or script using it gets 401 from its next request. This cannot be undone.</p>
              {pending.key.id === dashboardKeyId && <p>The dashboard will create a new “Dashboard” key for itself.</p>}
            </>
          ) : (
            <>
              <p>A new secret replaces this one. The old key stops working at once: apps using it get 401 until they are given the new key.</p>
              <p>The name and access stay the same.</p>
              {pending?.key.id === dashboardKeyId && <p>This dashboard’s data browser and docs switch to the new secret by themselves.</p>}
            </>
          )
        }
        confirmLabel={pending?.kind === "revoke" ? "Revoke key" : "Regenerate key"}
        danger
        pending={mutation.isPending}
        error={mutation.error}
        onConfirm={confirm}
      />
    </div>
  );
};
