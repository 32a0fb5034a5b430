"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiRequestError, errorMessage } from "../api/api-error";
import { whyNot } from "../api/can";
import { dataFetch, dataRequest } from "../api/data-client";
import type { DataRecord, Table } from "../api/types";
import { useDashboardKey } from "../api/use-dashboard-key";
import { type AuthSettings, POLICY_ACTIONS, usePolicies, useImpersonate, useTestAsUser } from "../api/use-db-auth";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { buildQueryString, EMPTY_QUERY, queryableColumns, type RecordsQuery } from "../data/build-query";
import { Pagination } from "../data/pagination";
import { QueryBuilder } from "../data/query-builder";
import { Field, SelectInput } from "../ui/field";
import { FormError } from "../ui/states";
import { isSecret } from "@/lib/schema/type-traits";

type Result = {
  status: number;
  rows: DataRecord[];
  total: string | null;
  message?: string;
  /** The data API's 422 on the query, shown on the filter it names. */
  error?: ApiRequestError;
  login: string;
  can: Map<number, { update: boolean; delete: boolean }>;
};

const Verdict = ({ ok }: { ok: boolean }) => <span className={ok ? "text-emerald-700" : "text-slate-400"}>{ok ? "✓ allowed" : "✗ 403"}</span>;

/**
 * "Test as user": the dashboard asks for a 5-minute token for the chosen user and reads the table through the
 * data API with it, so the rows shown are exactly the rows the API gives that user. Filters (OR groups
 * included), sort and pages are the data grid's, in the API's grammar, so every visible row can be reached;
 * the update/delete verdicts are asked for the same query, so they cover the page shown.
 */
type Props = { instance: string; tables: Table[]; auth: AuthSettings; /** Impersonating a user (a token for them) is the owner's and admins'. */ canAdmin: boolean };

export const TestAsUser = ({ instance, tables, auth, canAdmin }: Props) => {
  const { key } = useDashboardKey();
  const users = useQuery({
    queryKey: ["auth-users", instance, auth.users_table, key?.key],
    enabled: !!key && auth.enabled,
    queryFn: () => dataRequest<DataRecord[]>(instance, `${encodeURIComponent(auth.users_table)}?_limit=200`, key!.key),
  });
  const [userId, setUserId] = useState<number | undefined>();
  const [table, setTable] = useState(tables.find((t) => t.name !== auth.users_table)?.name ?? tables[0]?.name ?? "");
  const policies = usePolicies(instance, table);
  const impersonate = useImpersonate(instance);
  const verdicts = useTestAsUser(instance);
  const [result, setResult] = useState<Result | undefined>();
  const [query, setQuery] = useState<RecordsQuery>(EMPTY_QUERY);
  const chosen = userId ?? users.data?.[0]?.id;
  const tableDef = tables.find((t) => t.name === table);
  const columns = tableDef?.columns.filter((c) => !isSecret(c)).map((c) => c.name) ?? [];
  const queryString = buildQueryString(query);

  const run = async (next: RecordsQuery = query) => {
    setQuery(next);
    if (chosen === undefined) return;
    const { token, user } = await impersonate.mutateAsync(chosen);
    const q = buildQueryString(next);
    const res = await dataFetch(instance, `${encodeURIComponent(table)}?${q}`, token, { headers: { prefer: "count=exact" } });
    const body = await res.json();
    const login = String(user[auth.login_column] ?? user.id);
    if (!res.ok) return setResult({ status: res.status, rows: [], total: null, message: body.message, error: new ApiRequestError(res.status, body, "data"), login, can: new Map() });
    // Per-row update/delete verdicts come from the same predicates the data API applies (no write is tried).
    const check = await verdicts.mutateAsync({ user_id: chosen, table, query: q });
    const can = new Map(check.rows.map((r) => [r.record.id, { update: r.update, delete: r.delete }]));
    setResult({ status: res.status, rows: body, total: res.headers.get("x-total-count"), login, can });
  };
  const runSafely = (next?: RecordsQuery) => void run(next).catch(() => undefined);
  const chooseTable = (name: string) => {
    setTable(name);
    setQuery(EMPTY_QUERY);
    setResult(undefined);
  };

  if (!auth.enabled) {
    return (
      <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
        <h2 className="text-sm font-semibold text-slate-900">Test as user</h2>
        <p className="mt-1 text-sm text-slate-600">Enable database auth first.</p>
      </section>
    );
  }
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs" aria-label="Test as user">
      <h2 className="text-sm font-semibold text-slate-900">Test as user</h2>
      <p className="mt-1 text-sm text-slate-600">See a table exactly as the data API shows it to one of your users (a 5-minute token, never stored).</p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <Field label="User" htmlFor="test-user" className="w-64">
          <SelectInput id="test-user" value={chosen ?? ""} onChange={(e) => setUserId(Number(e.target.value))}>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {String(u[auth.login_column] ?? `#${u.id}`)} (id {u.id})
              </option>
            ))}
          </SelectInput>
        </Field>
        <Field label="Table" htmlFor="test-table" className="w-56">
          <SelectInput id="test-table" value={table} onChange={(e) => chooseTable(e.target.value)}>
            {tables.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </SelectInput>
        </Field>
        <Button
          variant="primary"
          onClick={() => runSafely()}
          pending={impersonate.isPending || verdicts.isPending}
          disabled={chosen === undefined || !canAdmin}
          title={canAdmin ? undefined : `${whyNot("admin")} It issues a token for the user.`}
        >
          Show what this user gets
        </Button>
      </div>
      {users.error && <p className="mt-2 text-sm text-red-700">Could not list users: {errorMessage(users.error)}</p>}
      {tableDef && (
        <div className="mt-4 space-y-2" data-testid="test-as-user-filters">
          <QueryBuilder key={`${table}?${queryString}`} columns={queryableColumns(tableDef)} query={query} error={result?.error} onApply={(next) => (canAdmin ? runSafely(next) : setQuery(next))} />
          <p className="font-mono text-xs break-all text-slate-600">GET /{table}?{queryString}</p>
        </div>
      )}
      <div className="mt-3"><FormError error={impersonate.error ?? verdicts.error} /></div>
      <div className="mt-4 flex flex-wrap gap-2" aria-label="Allowed actions">
        {POLICY_ACTIONS.map((a) => {
          const text = policies.data?.[a];
          return (
            <Badge key={a} tone={text ? "green" : "amber"}>
              {a}: {text ? (text === "true" ? "every row" : `where ${text}`) : "denied (403)"}
            </Badge>
          );
        })}
      </div>
      {result && (
        <div className="mt-4" data-testid="test-as-user-result">
          <p className="text-sm text-slate-700">
            As <strong>{result.login}</strong>: <code className="font-mono">GET /{table}</code> → {result.status}
            {result.status === 200 ? `, ${result.total ?? result.rows.length} visible row(s)` : ` — ${result.message}`}
          </p>
          {result.status === 200 && (
            <div className="mt-2">
              <Pagination offset={query.offset} limit={query.limit} shown={result.rows.length} total={result.total === null ? null : Number(result.total)} onChange={(page) => runSafely({ ...query, ...page })} />
            </div>
          )}
          {result.rows.length > 0 && (
            <div tabIndex={0} role="region" aria-label="Visible rows, scrollable" className="relative mt-2 overflow-x-auto rounded border border-slate-200">
              <table className="min-w-full text-left text-xs">
                <thead className="bg-slate-50 text-slate-600">
                  <tr>
                    {["id", ...columns].map((c) => (
                      <th key={c} className="px-2 py-1.5 font-medium">{c}</th>
                    ))}
                    <th className="px-2 py-1.5 font-medium">update</th>
                    <th className="px-2 py-1.5 font-medium">delete</th>
                  </tr>
                </thead>
                <tbody>
                  {result.rows.map((r) => (
                    <tr key={r.id} className="border-t border-slate-100">
                      {["id", ...columns].map((c) => (
                        <td key={c} className="px-2 py-1.5 font-mono">{r[c] === null || r[c] === undefined ? "—" : String(typeof r[c] === "object" ? JSON.stringify(r[c]) : r[c])}</td>
                      ))}
                      <td className="px-2 py-1.5"><Verdict ok={!!result.can.get(r.id)?.update} /></td>
                      <td className="px-2 py-1.5"><Verdict ok={!!result.can.get(r.id)?.delete} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </section>
  );
};
