import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { AppShell } from "@/components/shell/app-shell";
import { AuthGate } from "@/components/shell/auth-gate";

const DashboardLayout = ({ children }: { children: ReactNode }) => (
  <Providers>
    <AuthGate>
      <AppShell>{children}</AppShell>
    </AuthGate>
  </Providers>
);

export default DashboardLayout;
