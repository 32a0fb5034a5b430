"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { SparklesIcon } from "../icons";
import { AiBuilder } from "./ai-builder";

/** The Databases page's AI builder: a sentence becomes a new database, opened once applied. */
export const AiBuilderPanel = () => {
  const router = useRouter();
  return (
    <section aria-label="AI builder" className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
      <div className="mb-3 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="flex items-center gap-1.5 text-sm font-semibold text-slate-900">
          <SparklesIcon className="size-4 text-indigo-600" /> AI builder
        </h2>
        <p className="text-xs text-slate-500">
          Tables, dropdowns, references, a join and sample rows from one sentence; you see the plan before anything is created.
        </p>
        <Link href="/ai" className="ml-auto text-xs text-indigo-700 hover:underline">
          AI builds
        </Link>
      </div>
      <AiBuilder onApplied={(db) => router.push(`/databases/${db.instance}/schema`)} />
    </section>
  );
};
