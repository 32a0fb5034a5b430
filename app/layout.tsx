import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Tabula",
  description: "Define tables, get a MySQL schema, a secured REST API and live OpenAPI docs.",
};

const RootLayout = ({ children }: { children: ReactNode }) => (
  <html lang="en">
    <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
  </html>
);

export default RootLayout;
