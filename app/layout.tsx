import type { Metadata } from "next";
import type { ReactNode } from "react";
import { THEME_SCRIPT } from "@/components/shell/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Tabula",
  description: "Define tables, get a MySQL schema, a secured REST API and live OpenAPI docs.",
};

// The theme script sets html.dark before the first paint, so React sees a class it did not render.
const RootLayout = ({ children }: { children: ReactNode }) => (
  <html lang="en" suppressHydrationWarning>
    <head>
      <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
    </head>
    <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
  </html>
);

export default RootLayout;
