"use client";
import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { sessionApi } from "../api/management-client";
import type { Account } from "../api/types";

type Options = { /** An invite token: sign-up then works while it is closed, and the account joins that workspace. */ invite?: string; next?: string };

/** Creates the account through the public sign-up endpoint, then signs in with it and opens the dashboard. */
export const useSignUpAndIn = ({ invite, next = "/databases" }: Options = {}) => {
  const router = useRouter();
  return useMutation({
    mutationFn: async (input: { email: string; password: string }) => {
      await sessionApi<Account>("signup", invite ? { ...input, invite } : input);
      const result = await signIn("credentials", { ...input, redirect: false });
      if (!result?.ok) throw new Error("Your account was created, but signing in failed. Sign in below.");
    },
    onSuccess: () => router.replace(next),
  });
};
