import type { ReactNode } from "react";
import { Logo } from "../icons";

/** The centred card the sign-in, sign-up and first-run pages share. */
export const AuthCard = ({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) => (
  <main className="flex min-h-screen flex-col items-center justify-center bg-slate-100 px-4 py-12">
    <div className="mb-6">
      <Logo />
    </div>
    <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-7 shadow-sm">
      <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
      {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      <div className="mt-5">{children}</div>
    </div>
    {footer && <div className="mt-4 text-sm text-slate-600">{footer}</div>}
  </main>
);
