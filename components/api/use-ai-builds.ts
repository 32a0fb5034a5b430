"use client";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mgmt } from "./management-client";
import { queryKeys } from "./query-keys";
import type { AiBuild, AiBuildCreate, AiPlanner, Database } from "./types";

/** How often the running build is read while a build is in flight, to show each tool step as it happens. */
export const RUNNING_POLL_MS = 500;

const buildPath = (id: number) => `ai/builds/${id}`;

/** The workspace to name for a build on `db`: its owner's, when it is not yours (a member's builds are charged there). */
export const workspaceOf = (db: Pick<Database, "role" | "owner_id">) => (db.role === "owner" ? undefined : db.owner_id);

/** Whether a model is configured; the server's configuration, so read once. */
export const useAiPlanner = () => useQuery({ queryKey: queryKeys.aiPlanner, queryFn: () => mgmt<AiPlanner>("ai/planner"), staleTime: Infinity });

/** Your builds and your workspace's, newest first. */
export const useAiBuilds = () => useQuery({ queryKey: queryKeys.aiBuildList, queryFn: () => mgmt<AiBuild[]>("ai/builds") });

/** One build; while it is running, read again every RUNNING_POLL_MS so its steps fill in. */
export const useAiBuild = (id: number) =>
  useQuery({
    queryKey: queryKeys.aiBuild(id),
    queryFn: () => mgmt<AiBuild>(buildPath(id)),
    refetchInterval: (query) => (query.state.data?.status === "running" ? RUNNING_POLL_MS : false),
  });

/**
 * While a build is in flight (`input`: what its POST sent), the running build it started (same prompt, same
 * database), read every RUNNING_POLL_MS so each tool step shows as the agent makes it.
 */
export const useRunningBuild = (input: AiBuildCreate | undefined) => {
  const running = useQuery({
    queryKey: queryKeys.aiRunning,
    queryFn: () => mgmt<AiBuild[]>("ai/builds?status=running"),
    enabled: input !== undefined,
    refetchInterval: input !== undefined ? RUNNING_POLL_MS : false,
    gcTime: 0,
  });
  return input && running.data?.find((b) => b.prompt === input.prompt && b.database === (input.database ?? null));
};

/** A build costs an AI call (allowance or credit): the account's usage and ledger change with it. */
const refreshAfterBuild = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.aiBuilds }),
    qc.invalidateQueries({ queryKey: queryKeys.account }),
    qc.invalidateQueries({ queryKey: queryKeys.credits }),
  ]);

/** `POST /ai/builds`: answers when the agent is done (planned), or with its 402, 422 or 502. */
export const useCreateAiBuild = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AiBuildCreate) => mgmt<AiBuild>("ai/builds", { method: "POST", body: input }),
    // The steps polled for an earlier build must not show for this one.
    onMutate: () => qc.removeQueries({ queryKey: queryKeys.aiRunning }),
    onSuccess: (build) => {
      qc.setQueryData(queryKeys.aiBuild(build.id), build);
      return refreshAfterBuild(qc);
    },
    // A refused build is kept in the history too (failed, its credit released).
    onError: () => refreshAfterBuild(qc),
  });
};

type ApplyInput = { id: number; /** The owner's id, for a build in a workspace that is not yours. */ workspace?: number };

/** `POST /ai/builds/{id}/apply`: creates what the plan adds; the database, its joins, records and docs change. */
export const useApplyAiBuild = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, workspace }: ApplyInput) => mgmt<Database>(`${buildPath(id)}/apply${workspace ? `?workspace=${workspace}` : ""}`, { method: "POST" }),
    onSuccess: (db) => {
      qc.setQueryData(queryKeys.database(db.instance), db);
      return Promise.all([
        refreshAfterBuild(qc),
        qc.invalidateQueries({ queryKey: queryKeys.databases }),
        qc.invalidateQueries({ queryKey: ["joins", db.instance] }),
        qc.invalidateQueries({ queryKey: ["records", db.instance] }),
        qc.invalidateQueries({ queryKey: queryKeys.openapi(db.instance) }),
      ]);
    },
  });
};

type EditInput = ApplyInput & { plan: AiBuild["plan"] };

/** `PUT /ai/builds/{id}/plan`: the builder's edits of a planned build; answers the build with its new plan. */
export const useEditAiPlan = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, workspace, plan }: EditInput) => mgmt<AiBuild>(`${buildPath(id)}/plan${workspace ? `?workspace=${workspace}` : ""}`, { method: "PUT", body: { plan } }),
    onSuccess: (build) => {
      qc.setQueryData(queryKeys.aiBuild(build.id), build);
      return qc.invalidateQueries({ queryKey: queryKeys.aiBuilds });
    },
  });
};
