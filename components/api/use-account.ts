"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt, sessionApi } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Account, AccountCreate, PasswordChange, PasswordReset, PasswordResetResult, Settings, SettingsPatch, SignupStatus } from "./types";

export const useSignupStatus = () =>
  useQuery({ queryKey: queryKeys.signupStatus, queryFn: () => sessionApi<SignupStatus>("status"), staleTime: 0 });

export const useSignUp = () => useMutation({ mutationFn: (input: { email: string; password: string }) => sessionApi<Account>("signup", input) });

export const useAccount = () => useQuery({ queryKey: queryKeys.account, queryFn: () => mgmt<Account>("account") });

export const useAccounts = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.accounts, queryFn: () => mgmt<Account[]>("accounts"), enabled });

export const useAddAccount = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AccountCreate) => mgmt<Account>("accounts", { method: "POST", body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.accounts }),
  });
};

export const useSettings = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.settings, queryFn: () => mgmt<Settings>("settings"), enabled });

export const useUpdateSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SettingsPatch) => mgmt<Settings>("settings", { method: "PATCH", body: input }),
    onSuccess: (data) => qc.setQueryData(queryKeys.settings, data),
  });
};

/** Disable or enable an account (operator); the accounts list refreshes. */
export const useSetAccountDisabled = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) => mgmt<Account>(`accounts/${id}/${disabled ? "disable" : "enable"}`, { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.accounts }),
  });
};

/** The operator sets an account's password, or (no password) gets a generated one back, once. */
export const useResetAccountPassword = () =>
  useMutation({
    mutationFn: ({ id, body }: { id: number; body: PasswordReset }) => mgmt<PasswordResetResult>(`accounts/${id}/password`, { method: "POST", body }),
  });

/** The signed-in account changes its own password (the current one required). */
export const useChangeOwnPassword = () =>
  useMutation({ mutationFn: (body: PasswordChange) => mgmt<void>("account/password", { method: "PUT", body }) });

/** Sign out everywhere: every dashboard session of the account ends, this one included. */
export const useEndAllSessions = () => useMutation({ mutationFn: () => mgmt<void>("account/sessions", { method: "DELETE" }) });
