import { type ReactNode, Suspense } from "react";
import { MobileNav } from "./mobile-nav";
import { Sidebar } from "./sidebar";

/** Sidebar on the left from the md breakpoint up; below it a top bar whose menu opens the same navigation as a drawer. */
export const AppShell = ({ children }: { children: ReactNode }) => (
  <div className="flex min-h-screen">
    <a
      href="#main"
      className="sr-only z-50 rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
    >
      Skip to main content
    </a>
    <Sidebar />
    <div className="min-w-0 flex-1">
      <Suspense>
        <MobileNav />
      </Suspense>
      <main id="main" tabIndex={-1} className="min-w-0 outline-none">
        <div className="mx-auto max-w-6xl px-4 py-5 md:px-7 md:py-7">{children}</div>
      </main>
    </div>
  </div>
);
