"use client";
import "./globals.css";

/** A failure in the root layout itself: it replaces the whole document, so it brings its own <html>. */
const GlobalError = ({ reset }: { error: Error & { digest?: string }; reset: () => void }) => (
  <html lang="en">
    <body className="grid min-h-screen place-items-center bg-slate-50 px-4 text-slate-900">
      <main role="alert" className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center">
        <h1 className="text-xl font-semibold">Tabula could not start this page</h1>
        <p className="mt-2 text-sm text-slate-600">Reload to try again; if it keeps failing, the server log has the details.</p>
        <button type="button" onClick={reset} className="mt-6 rounded-md bg-indigo-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Try again
        </button>
      </main>
    </body>
  </html>
);

export default GlobalError;
