import type { ReactNode } from "react";

export const PageHeader = ({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) => (
  <div className="flex flex-wrap items-start justify-between gap-4">
    <div className="min-w-0">
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
    </div>
    {actions && <div className="flex items-center gap-2">{actions}</div>}
  </div>
);
