import Link from "next/link";
import type { ReactNode } from "react";
import { errorMessage, quotaOf } from "../api/api-error";
import { Button } from "./button";
import { QuotaError } from "./quota-error";
import { Spinner } from "./spinner";

export const LoadingState = ({ label = "Loading…" }: { label?: string }) => (
  <div role="status" className="flex items-center justify-center gap-2 py-12 text-sm text-slate-500">
    <Spinner />
    {label}
  </div>
);

export const EmptyState = ({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) => (
  <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
    <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
    {children && <div className="mx-auto mt-1 max-w-md text-sm text-slate-500">{children}</div>}
    {action && <div className="mt-4 flex justify-center">{action}</div>}
  </div>
);

export const ErrorState = ({ error, title = "Could not load this", onRetry }: { error: unknown; title?: string; onRetry?: () => void }) => {
  const quota = quotaOf(error);
  if (quota) return <QuotaError message={errorMessage(error)} quota={quota} />;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">{title}</p>
      <p className="mt-0.5 text-red-700">{errorMessage(error)}</p>
      {onRetry && (
        <Button size="sm" className="mt-2" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
};

/**
 * A one-line error under a form; nothing when there is no error. A quota refusal (402) always says which
 * limit was hit and where to raise it, whatever the fallback.
 */
export const FormError = ({ error, fallback }: { error: unknown; fallback?: string }) => {
  if (!error) return null;
  const quota = quotaOf(error);
  if (quota) return <QuotaError message={errorMessage(error)} quota={quota} />;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {fallback ?? errorMessage(error)}
    </p>
  );
};

/** Something the URL names does not exist: say so, and offer the way back (never "Try again"). */
export const NotFoundState = ({ title, children, backHref, backLabel }: { title: string; children?: ReactNode; backHref: string; backLabel: string }) => (
  <div role="alert" className="rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-xs">
    <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
    {children && <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">{children}</p>}
    <Link href={backHref} className="mt-4 inline-block rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500">
      {backLabel}
    </Link>
  </div>
);
