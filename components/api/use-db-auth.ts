"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { databasePath, mgmt, tablePath } from "./management-client";
import { queryKeys } from "./query-keys";
import type { MailboxMessage } from "./use-mailbox";
import type { AuthSettings, AuthSettingsInput, AuthUser, Policies, PolicyAction, TestAsUserResult, UserToken } from "./types";

export type { AuthSettings, AuthUser, Policies, PolicyAction, TestAsUserResult, UserToken };

export const POLICY_ACTIONS: PolicyAction[] = ["select", "insert", "update", "delete"];

export const useAuthSettings = (instance: string) =>
  useQuery({ queryKey: queryKeys.auth(instance), queryFn: () => mgmt<AuthSettings>(`${databasePath(instance)}/auth`) });

export const useSaveAuthSettings = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AuthSettingsInput) => mgmt<AuthSettings>(`${databasePath(instance)}/auth`, { method: "PUT", body }),
    onSuccess: (data) => qc.setQueryData(queryKeys.auth(instance), data),
  });
};

export const useRotateSecret = (instance: string) =>
  useMutation({ mutationFn: () => mgmt<AuthSettings>(`${databasePath(instance)}/auth/rotate-secret`, { method: "POST" }) });

/** Sends the database's verification mail (its templates and sender, a sample link) to one address; the answer is the mail as the mailbox shows it. */
export const useSendAuthTestMail = (instance: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (to: string) => mgmt<MailboxMessage>(`${databasePath(instance)}/auth/test-mail`, { method: "POST", body: { to } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.mailbox }),
  });
};

export const usePolicies = (instance: string, table: string) =>
  useQuery({ queryKey: queryKeys.policies(instance, table), queryFn: () => mgmt<Policies>(`${tablePath(instance, table)}/policies`), enabled: !!table });

export const useSavePolicies = (instance: string, table: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Policies) => mgmt<Policies>(`${tablePath(instance, table)}/policies`, { method: "PUT", body }),
    onSuccess: (data) => qc.setQueryData(queryKeys.policies(instance, table), data),
  });
};

export const useImpersonate = (instance: string) =>
  useMutation({ mutationFn: (userId: number) => mgmt<UserToken>(`${databasePath(instance)}/auth/impersonate`, { method: "POST", body: { user_id: userId } }) });

export const useTestAsUser = (instance: string) =>
  useMutation({
    mutationFn: (input: { user_id: number; table: string; query?: string }) =>
      mgmt<TestAsUserResult>(`${databasePath(instance)}/auth/test-as-user`, { method: "POST", body: input }),
  });

/** The users admin: one page of the database's users (admins only). */
export const useAuthUsers = (instance: string, q: string, after: number | null, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.authUsers(instance, q, after),
    queryFn: () => {
      const params = new URLSearchParams({ _limit: "25" });
      if (q) params.set("q", q);
      if (after !== null) params.set("_after", String(after));
      return mgmt<{ users: AuthUser[]; next_after: number | null }>(`${databasePath(instance)}/auth/users?${params}`);
    },
    enabled,
  });

export type AuthUserAction = "verify" | "disable" | "enable" | "send-reset" | "reset-mfa" | "end-sessions";

export const useAuthUserAction = (instance: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: AuthUserAction }) =>
      action === "end-sessions"
        ? mgmt<{ user: AuthUser }>(`${databasePath(instance)}/auth/users/${id}/sessions`, { method: "DELETE" })
        : mgmt<{ user: AuthUser }>(`${databasePath(instance)}/auth/users/${id}/${action}`, { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["auth", instance, "users"] }),
  });
};
