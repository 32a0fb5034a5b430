import type { Invite } from "../api/types";

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

export const formatDateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** How an invite's status reads, and its badge tone. */
export const INVITE_STATUS: Record<Invite["status"], { label: string; tone: "green" | "amber" | "slate" }> = {
  pending: { label: "pending", tone: "green" },
  expired: { label: "expired", tone: "amber" },
  used_up: { label: "used", tone: "slate" },
  revoked: { label: "revoked", tone: "slate" },
};
