"use client";
// The Backups panel's calls: list (refreshed while one runs), back up now, the schedule, and a restore upload
// whose progress comes from the browser's upload events.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api-error";
import { databasePath, mgmt } from "./management-client";

export type Backup = {
  id: number;
  status: "running" | "done" | "failed";
  size: number | null;
  tables: number | null;
  rows: number | null;
  event_id: number | null;
  error: string | null;
  scheduled: boolean;
  created_at: string;
  finished_at: string | null;
};
export type BackupSchedule = { every_hours: number | null; keep: number; next_at: string | null };

const base = (instance: string) => `${databasePath(instance)}/backups`;

export const downloadUrl = (instance: string, id: number) => `/api/v1/${base(instance)}/${id}/download`;

export const useBackups = (instance: string) =>
  useQuery({
    queryKey: ["backups", instance],
    queryFn: () => mgmt<Backup[]>(base(instance)),
    refetchInterval: (query) => (query.state.data?.some((b) => b.status === "running") ? 1000 : false),
  });

export const useBackupSchedule = (instance: string) => useQuery({ queryKey: ["backup-schedule", instance], queryFn: () => mgmt<BackupSchedule>(`${base(instance)}/schedule`) });

export const useBackupMutations = (instance: string) => {
  const qc = useQueryClient();
  return {
    start: useMutation({
      mutationFn: () => mgmt<{ id: number }>(base(instance), { method: "POST" }),
      onSuccess: () => void qc.invalidateQueries({ queryKey: ["backups", instance] }),
    }),
    schedule: useMutation({
      mutationFn: (body: { every_hours: number | null; keep: number }) => mgmt<BackupSchedule>(`${base(instance)}/schedule`, { method: "PUT", body }),
      onSuccess: (data) => qc.setQueryData(["backup-schedule", instance], data),
    }),
  };
};

/** POSTs an archive to /databases/restore with upload progress (0…1); resolves with the new database. */
export const uploadRestore = (file: File, name: string, onProgress: (share: number) => void) =>
  new Promise<{ instance: string; name: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/databases/restore?name=${encodeURIComponent(name)}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("content-type", "application/gzip");
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 201) resolve(body as { instance: string; name: string });
      else reject(new ApiRequestError(xhr.status, body as never, "management"));
    };
    xhr.onerror = () => reject(new Error("The upload failed (the connection was lost)."));
    xhr.send(file);
  });
