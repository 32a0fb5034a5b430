import type { ReactNode } from "react";
import { Sidebar } from "./sidebar";

/** Sidebar on the left, the page on the right (readable from a 1280-pixel laptop up). */
export const AppShell = ({ children }: { children: ReactNode }) => (
  <div className="flex min-h-screen">
    <Sidebar />
    <main className="min-w-0 flex-1">
      <div className="mx-auto max-w-6xl px-7 py-7">{children}</div>
    </main>
  </div>
);
