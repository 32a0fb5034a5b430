"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import type { Table } from "../api/types";
import { TableIcon } from "../icons";

/** The tables of a database as links (`?table=`), shared by the schema editor and the data browser. */
type Props = { tables: Table[]; selected?: string; basePath: string; footer?: ReactNode; /** Row counts (the Data tab); without them the column count shows, labelled. */ counts?: Record<string, number | null> };

const countLabel = (t: Table, counts?: Record<string, number | null>) => {
  if (!counts) return `${t.columns.length + 3} cols`;
  const n = counts[t.name];
  return n === undefined || n === null ? "" : `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"}`;
};

export const TableList = ({ tables, selected, basePath, footer, counts }: Props) => (
  <div className="w-full shrink-0 md:w-44">
    <p className="mb-1 px-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">Tables</p>
    <ul className="flex gap-1 overflow-x-auto pb-1 md:block md:space-y-0.5 md:overflow-visible md:pb-0" aria-label="Tables">
      {tables.map((t) => (
        <li key={t.name} className="shrink-0">
          <Link
            href={`${basePath}?table=${encodeURIComponent(t.name)}`}
            aria-current={t.name === selected ? "page" : undefined}
            className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm ${
              t.name === selected ? "bg-white font-medium text-indigo-700 shadow-xs ring-1 ring-slate-200" : "text-slate-600 hover:bg-white hover:text-slate-900"
            }`}
          >
            <TableIcon className="size-4 shrink-0 text-slate-600" />
            <span className="truncate">{t.name}</span>
            <span className="ml-auto text-[11px] whitespace-nowrap text-slate-600">{countLabel(t, counts)}</span>
          </Link>
        </li>
      ))}
    </ul>
    {footer && <div className="mt-3 px-1">{footer}</div>}
  </div>
);
