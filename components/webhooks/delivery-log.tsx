"use client";
import { useState } from "react";
import { type Delivery, type DeliveryAttempt, useDeliveries, useWebhookMutations } from "../api/use-webhooks";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";

const TONE = { delivered: "green", failed: "red", pending: "amber", delivering: "indigo" } as const;

const pretty = (text: string | null) => {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

const Block = ({ label, text }: { label: string; text: string }) => (
  <div className="min-w-0 flex-1">
    <p className="mb-1 text-xs font-medium text-slate-700">{label}</p>
    <pre aria-label={label} tabIndex={0} className="max-h-64 overflow-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
      {text}
    </pre>
  </div>
);

/** Every attempt in the order made, each with its status and what the receiver answered. */
const AttemptList = ({ attempts }: { attempts: DeliveryAttempt[] }) => (
  <div className="border-t border-slate-200 p-3">
    <p className="mb-1 text-xs font-medium text-slate-700">Attempts</p>
    {attempts.length === 0 ? (
      <p className="text-xs text-slate-600">No attempt made yet.</p>
    ) : (
      <ol aria-label="Attempts" className="space-y-2">
        {attempts.map((a, i) => (
          <li key={i} className="space-y-1">
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
              <Badge tone={a.ok ? "green" : "red"}>{a.ok ? "delivered" : "failed"}</Badge>
              <span>
                Attempt {i + 1}
                {i > 0 && a.attempt === 1 && " (redelivered)"} · {new Date(a.at).toLocaleString()}
                {a.response_status !== null && ` · HTTP ${a.response_status}`}
                {a.duration_ms !== null && ` · ${Math.round(a.duration_ms)} ms`}
              </span>
              {a.error && <span className="text-red-700">{a.error}</span>}
            </div>
            {a.response_status !== null && (
              <pre aria-label={`Answer to attempt ${i + 1}`} tabIndex={0} className="max-h-32 overflow-auto rounded-md bg-slate-900 px-3 py-1.5 font-mono text-xs text-slate-100">
                {pretty(a.response_body) || "(empty body)"}
              </pre>
            )}
          </li>
        ))}
      </ol>
    )}
  </div>
);

const DeliveryRow = ({ instance, delivery, open, onOpen }: { instance: string; delivery: Delivery; open: boolean; onOpen: () => void }) => {
  const { redeliver } = useWebhookMutations(instance);
  const body = JSON.parse(delivery.request.body) as { action?: string; table?: string | null };
  const test = delivery.event_id === null;
  return (
    <li className="rounded-md border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
        <Badge tone={TONE[delivery.status]}>{delivery.status}</Badge>
        {test ? (
          <Badge tone="indigo">Test event</Badge>
        ) : (
          <span className="font-mono text-slate-900">
            {body.table ?? "—"}.{body.action}
          </span>
        )}
        <span className="text-slate-600">
          {test ? "sent by Send test event" : `event ${delivery.event_id}`} · {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"}
          {delivery.response_status !== null && ` · HTTP ${delivery.response_status}`}
          {delivery.duration_ms !== null && ` · ${delivery.duration_ms} ms`}
          {delivery.next_attempt_at && ` · next ${new Date(delivery.next_attempt_at).toLocaleTimeString()}`}
        </span>
        {delivery.error && <span className="text-xs text-red-700">{delivery.error}</span>}
        <span className="ml-auto flex gap-2">
          <Button size="sm" onClick={onOpen} aria-expanded={open}>
            {open ? "Hide" : "Request & response"}
          </Button>
          <Button size="sm" onClick={() => redeliver.mutate(delivery.id)} pending={redeliver.isPending} disabled={delivery.status === "pending" || delivery.status === "delivering"}>
            Redeliver
          </Button>
        </span>
      </div>
      {open && (
        <div className="flex flex-col gap-3 border-t border-slate-200 p-3 md:flex-row">
          <Block label="Request" text={`${Object.entries(delivery.request.headers ?? {}).map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${pretty(delivery.request.body)}`} />
          <Block label="Response" text={delivery.response.status === null ? (delivery.error ?? "No response yet.") : `HTTP ${delivery.response.status}\n\n${delivery.response.body ?? ""}`} />
        </div>
      )}
      {open && <AttemptList attempts={delivery.attempt_log} />}
    </li>
  );
};

/** The last 50 deliveries of one webhook, newest first, each with its last attempt's request and response and every attempt's outcome. */
export const DeliveryLog = ({ instance, webhookId }: { instance: string; webhookId: number }) => {
  const log = useDeliveries(instance, webhookId);
  const [openId, setOpenId] = useState<number>();
  if (log.isLoading) return <LoadingState label="Loading deliveries…" />;
  if (log.error) return <ErrorState error={log.error} onRetry={() => log.refetch()} />;
  if (!log.data?.length) return <EmptyState title="No deliveries yet">Change a row, or press Send test event.</EmptyState>;
  return (
    <ul aria-label="Deliveries" className="space-y-2">
      {log.data.map((d) => (
        <DeliveryRow key={d.id} instance={instance} delivery={d} open={openId === d.id} onOpen={() => setOpenId(openId === d.id ? undefined : d.id)} />
      ))}
    </ul>
  );
};
