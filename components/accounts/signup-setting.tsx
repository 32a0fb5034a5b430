"use client";
import type { SignupMode } from "../api/types";
import { useSettings, useUpdateSettings } from "../api/use-account";
import { ErrorState, FormError, LoadingState } from "../ui/states";

const MODES: { mode: SignupMode; title: string; text: string }[] = [
  { mode: "operator", title: "Operator only", text: "Nobody can sign up; you create accounts here." },
  { mode: "open", title: "Open", text: "Anyone who reaches this server can create an account from the sign-in page." },
];

/** Who may create accounts on this install. */
export const SignupSetting = () => {
  const settings = useSettings(true);
  const update = useUpdateSettings();
  if (settings.isLoading) return <LoadingState />;
  if (settings.error) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <legend className="sr-only">Sign-up</legend>
      <h2 className="text-sm font-semibold text-slate-900">Sign-up</h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {MODES.map((m) => (
          <label
            key={m.mode}
            className={`flex cursor-pointer gap-3 rounded-md border p-3 ${settings.data?.signup === m.mode ? "border-indigo-500 bg-indigo-50/50" : "border-slate-200 hover:border-slate-300"}`}
          >
            <input
              type="radio"
              name="signup"
              className="mt-1 accent-indigo-600"
              checked={settings.data?.signup === m.mode}
              disabled={update.isPending}
              onChange={() => update.mutate({ signup: m.mode })}
            />
            <span>
              <span className="block text-sm font-medium text-slate-900">{m.title}</span>
              <span className="block text-sm text-slate-600">{m.text}</span>
            </span>
          </label>
        ))}
      </div>
      <div className="mt-3">
        <FormError error={update.error} />
      </div>
    </fieldset>
  );
};
