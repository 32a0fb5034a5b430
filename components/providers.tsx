"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider, signOut } from "next-auth/react";
import { type ReactNode, useState } from "react";
import { ApiRequestError } from "./api/api-error";

/** A management 401 means the session ended (expired, or the account is gone): back to sign-in. */
const onApiError = (error: unknown) => {
  if (error instanceof ApiRequestError && error.source === "management" && error.status === 401) {
    void signOut({ redirect: false }).then(() => window.location.assign("/login"));
  }
};

const makeClient = () =>
  new QueryClient({
    queryCache: new QueryCache({ onError: onApiError }),
    mutationCache: new MutationCache({ onError: onApiError }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) are answers, not glitches: retrying them only delays the message.
        retry: (count, error) => !(error instanceof ApiRequestError && error.status < 500) && count < 2,
      },
    },
  });

export const Providers = ({ children }: { children: ReactNode }) => {
  const [client] = useState(makeClient);
  return (
    <SessionProvider refetchOnWindowFocus={false}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </SessionProvider>
  );
};
