import Link from "next/link";
import { Logo } from "@/components/icons";

export const metadata = { title: "Page not found · Tabula" };

/** Any URL no page answers: the app's own look, and the ways back. */
const NotFound = () => (
  <main id="main" className="grid min-h-screen place-items-center px-4">
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center shadow-xs">
      <div className="flex justify-center">
        <Logo />
      </div>
      <p className="mt-6 text-sm font-semibold text-indigo-700">404</p>
      <h1 className="mt-1 text-xl font-semibold text-slate-900">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">Nothing lives at this address. It may have moved, or the link is mistyped.</p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Link href="/databases" className="rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Your databases
        </Link>
        <Link href="/settings" className="rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Settings
        </Link>
      </div>
    </div>
  </main>
);

export default NotFound;
