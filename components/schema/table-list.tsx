"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import type { Table } from "../api/types";
import { TableIcon } from "../icons";

/** The tables of a database as links (`?table=`), shared by the schema editor and the data browser. */
export const TableList = ({ tables, selected, basePath, footer }: { tables: Table[]; selected?: string; basePath: string; footer?: ReactNode }) => (
  <div className="w-40 shrink-0">
    <p className="mb-1 px-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Tables</p>
    <ul className="space-y-0.5" aria-label="Tables">
      {tables.map((t) => (
        <li key={t.name}>
          <Link
            href={`${basePath}?table=${encodeURIComponent(t.name)}`}
            aria-current={t.name === selected ? "page" : undefined}
            className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm ${
              t.name === selected ? "bg-white font-medium text-indigo-700 shadow-xs ring-1 ring-slate-200" : "text-slate-600 hover:bg-white hover:text-slate-900"
            }`}
          >
            <TableIcon className="size-4 shrink-0 text-slate-600" />
            <span className="truncate">{t.name}</span>
            <span className="ml-auto text-xs text-slate-600">{t.columns.length + 3}</span>
          </Link>
        </li>
      ))}
    </ul>
    {footer && <div className="mt-3 px-1">{footer}</div>}
  </div>
);
