import type { LedgerEntry } from "../api/types";
import { Badge } from "../ui/badge";
import { EmptyState } from "../ui/states";
import { KIND_NOUNS } from "./plan-wording";
import { Table } from "../ui/table";

const ENTRY_TONES = { grant: "green", spend: "amber", hold: "slate", release: "indigo" } as const;

const formatDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

const Blank = () => <span className="text-slate-400">—</span>;

/** Every grant, hold, spend and release of the account's credits, newest first. */
export const CreditsLedger = ({ entries }: { entries: LedgerEntry[] }) => {
  if (!entries.length) {
    return (
      <EmptyState title="No credits yet">
        Grants from the operator or from a purchase show here, and so does every credit spent.
      </EmptyState>
    );
  }
  return (
    <Table label="Credits ledger" columns={["Entry", "Kind", { label: "Amount", align: "right" }, { label: "Delta", align: "right" }, "Source", "Note", "Date"]}>
      {entries.map((e) => (
        <tr key={e.id} data-entry={e.entry}>
          <td className="px-4 py-2.5">
            <Badge tone={ENTRY_TONES[e.entry]}>{e.entry}</Badge>
          </td>
          <td className="px-4 py-2.5 text-slate-700">{KIND_NOUNS[e.kind].title}</td>
          <td className="px-4 py-2.5 text-right text-slate-900 tabular-nums">{e.amount}</td>
          <td className={`px-4 py-2.5 text-right tabular-nums ${e.delta > 0 ? "text-emerald-700" : e.delta < 0 ? "text-amber-700" : "text-slate-500"}`}>
            {signed(e.delta)}
          </td>
          <td className="px-4 py-2.5">{e.source ? <code className="font-mono text-xs text-slate-700">{e.source}</code> : <Blank />}</td>
          <td className="px-4 py-2.5 text-slate-700">{e.note ?? <Blank />}</td>
          <td className="px-4 py-2.5 whitespace-nowrap text-slate-600">{formatDate(e.created_at)}</td>
        </tr>
      ))}
    </Table>
  );
};
