"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt } from "./management-client";

export type WebhookAction = "insert" | "update" | "delete";
export type Webhook = {
  id: number;
  url: string;
  tables: string[] | null;
  actions: WebhookAction[] | null;
  active: boolean;
  secret: string;
  failing_since: string | null;
  disabled_reason: string | null;
  created_at: string;
};
export type WebhookInput = { url: string; tables?: string[] | null; actions?: WebhookAction[] | null; active?: boolean };
/** One attempt of a delivery, with its own outcome (the delivery's `response` is the last one's). */
export type DeliveryAttempt = { attempt: number; ok: boolean; response_status: number | null; response_body: string | null; duration_ms: number | null; error: string | null; at: string };

export type Delivery = {
  id: number;
  event_id: number | null;
  status: "pending" | "delivering" | "delivered" | "failed";
  attempts: number;
  response_status: number | null;
  duration_ms: number | null;
  next_attempt_at: string | null;
  error: string | null;
  request: { headers: Record<string, string> | null; body: string };
  response: { status: number | null; body: string | null };
  /** Every attempt made, oldest first. */
  attempt_log: DeliveryAttempt[];
  created_at: string;
  updated_at: string;
};

const base = (instance: string) => `${databasePath(instance)}/webhooks`;
const keys = { list: (instance: string) => ["webhooks", instance] as const, deliveries: (instance: string, id: number) => ["webhook-deliveries", instance, id] as const };

export const useWebhooks = (instance: string) => useQuery({ queryKey: keys.list(instance), queryFn: () => mgmt<Webhook[]>(base(instance)) });

/** Pending deliveries change by themselves: the log refreshes every 2 s while it is open. */
export const useDeliveries = (instance: string, id: number) =>
  useQuery({ queryKey: keys.deliveries(instance, id), queryFn: () => mgmt<Delivery[]>(`${base(instance)}/${id}/deliveries?limit=50`), refetchInterval: 2000 });

export const useWebhookMutations = (instance: string) => {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ["webhooks", instance] });
  const refreshLog = () => void qc.invalidateQueries({ queryKey: ["webhook-deliveries", instance] });
  return {
    create: useMutation({ mutationFn: (body: WebhookInput) => mgmt<Webhook>(base(instance), { method: "POST", body }), onSuccess: refresh }),
    update: useMutation({ mutationFn: ({ id, body }: { id: number; body: Partial<WebhookInput> }) => mgmt<Webhook>(`${base(instance)}/${id}`, { method: "PATCH", body }), onSuccess: refresh }),
    remove: useMutation({ mutationFn: (id: number) => mgmt<void>(`${base(instance)}/${id}`, { method: "DELETE" }), onSuccess: refresh }),
    test: useMutation({ mutationFn: (id: number) => mgmt<Delivery>(`${base(instance)}/${id}/test`, { method: "POST" }), onSuccess: refreshLog }),
    redeliver: useMutation({ mutationFn: (id: number) => mgmt<Delivery>(`${base(instance)}/deliveries/${id}/redeliver`, { method: "POST" }), onSuccess: refreshLog }),
  };
};
