"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt, sessionApi } from "./management-client";
import { queryKeys } from "./query-keys";
import type { Account, AccountCreate, Settings, SettingsPatch, SignupStatus } from "./types";

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
