"use client";
import Link from "next/link";
import { Logo } from "@/components/icons";

/** An unexpected failure while rendering a page: say so plainly, offer a retry and a way out. */
const ErrorPage = ({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) => (
  <main id="main" className="grid min-h-screen place-items-center px-4">
    <div role="alert" className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-xs">
      <div className="flex justify-center">
        <Logo />
      </div>
      <h1 className="mt-6 text-xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-600">This page failed to show. Trying again usually helps; if it keeps failing, the server log has the details.</p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Reference {error.digest}</p>}
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <button type="button" onClick={reset} className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Try again
        </button>
        <Link href="/databases" className="rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Your databases
        </Link>
      </div>
    </div>
  </main>
);

export default ErrorPage;
