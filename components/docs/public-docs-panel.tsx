"use client";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors, quotaOf } from "../api/api-error";
import { lockedUnless } from "../api/can";
import { type DocsSettings, type DomainStatus, useDocsSettings, useSaveDocsSettings, useVerifyDocsDomain } from "../api/use-docs-settings";
import { useDatabaseAccess } from "../api/use-databases";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Checkbox, Field, TextInput } from "../ui/field";
import { LockNote } from "../ui/lock-note";
import { ErrorState, FormError, LoadingState } from "../ui/states";

const STATUS: Record<DomainStatus, { tone: "slate" | "amber" | "green" | "red"; label: string }> = {
  none: { tone: "slate", label: "No domain" },
  pending: { tone: "amber", label: "Pending" },
  verified: { tone: "green", label: "Verified" },
  failing: { tone: "red", label: "Failing" },
};

/** A 402 on a domain: the plan lacks custom domains; say so and where to change it. */
const UpgradeNote = ({ message }: { message: string }) => (
  <div role="alert" className="mt-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
    <p>{message}</p>
    <Link href="/settings/plan" className="mt-1 inline-block font-medium text-indigo-700 underline hover:text-indigo-600">
      Open Plan &amp; usage
    </Link>
  </div>
);

const DnsRecord = ({ type, name, value }: { type: string; name: string; value: string }) => (
  <tr className="border-t border-slate-100 align-top">
    <td className="py-2 pr-3 font-mono text-xs font-semibold text-slate-700">{type}</td>
    <td className="py-2 pr-3 font-mono text-xs break-all text-slate-900">{name}</td>
    <td className="py-2 pr-3 font-mono text-xs break-all text-slate-900">{value}</td>
    <td className="py-2 text-right">
      <CopyButton text={value} label={`Copy ${type}`} />
    </td>
  </tr>
);

const DomainPart = ({ instance, settings, allowed }: { instance: string; settings: DocsSettings; allowed: boolean }) => {
  const save = useSaveDocsSettings(instance);
  const verify = useVerifyDocsDomain(instance);
  const [domain, setDomain] = useState(settings.domain ?? "");
  const quota = quotaOf(save.error);
  const domainError = fieldErrors(save.error).domain;
  const status = STATUS[settings.domain_status];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ public: settings.public, domain: domain.trim() || null });
  };
  return (
    <div className="mt-5 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">Custom domain</h3>
      <p className="mt-1 text-sm text-slate-600">
        Serve these docs at your own address, e.g. <code className="font-mono">docs.example.com</code>. Needs a plan with custom domains.
      </p>
      <form onSubmit={submit} className="mt-3 flex items-end gap-2">
        <Field className="w-80" label="Domain" htmlFor="docs-domain" error={domainError}>
          <TextInput id="docs-domain" placeholder="docs.example.com" value={domain} onChange={(e) => setDomain(e.target.value)} invalid={!!domainError} disabled={!allowed} />
        </Field>
        <Button type="submit" variant="primary" pending={save.isPending} disabled={!allowed || domain.trim().toLowerCase() === (settings.domain ?? "")} title={lockedUnless(allowed, "admin").title}>
          {domain.trim() ? "Save domain" : "Remove domain"}
        </Button>
      </form>
      {quota ? <UpgradeNote message={errorMessage(save.error)} /> : !domainError && <div className="mt-3"><FormError error={save.error} /></div>}
      {settings.domain && settings.txt && (
        <div className="mt-4 space-y-3">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium text-slate-900">{settings.domain}</span>
            <span data-testid="domain-status">
              <Badge tone={status.tone}>{status.label}</Badge>
            </span>
            {settings.domain_status === "verified" && settings.public && (
              <a className="text-indigo-600 hover:underline" href={`https://${settings.domain}/`} target="_blank" rel="noreferrer">
                https://{settings.domain}/
              </a>
            )}
          </div>
          {settings.domain_error && (
            <p data-testid="domain-error" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {settings.domain_status === "failing" ? "No longer served: " : "Not verified yet: "}
              {settings.domain_error}
            </p>
          )}
          {settings.domain_status === "verified" && !settings.public && <p className="text-sm text-slate-600">Verified; it serves the docs once they are public.</p>}
          <div>
            <p className="text-sm text-slate-600">Create these records at your DNS provider, then verify:</p>
            <table className="mt-2 w-full text-left">
              <thead>
                <tr className="text-xs text-slate-500">
                  <th className="pb-1 font-medium">Type</th>
                  <th className="pb-1 font-medium">Name</th>
                  <th className="pb-1 font-medium">Value</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                <DnsRecord type="CNAME" name={settings.domain} value={settings.cname_target} />
                <DnsRecord type="TXT" name={settings.txt.name} value={settings.txt.value} />
              </tbody>
            </table>
          </div>
          <div className="flex items-center gap-3">
            <Button variant="primary" pending={verify.isPending} onClick={() => verify.mutate()} {...lockedUnless(allowed, "admin")}>
              Verify DNS
            </Button>
            {settings.checked_at && <span className="text-xs text-slate-500">Last checked {new Date(settings.checked_at).toLocaleString()}</span>}
          </div>
          <FormError error={verify.error} />
        </div>
      )}
    </div>
  );
};

/** The Docs tab's "Public docs" section: the switch, the public URL, and the custom domain with its DNS records. */
export const PublicDocsPanel = ({ instance }: { instance: string }) => {
  const settings = useDocsSettings(instance);
  const access = useDatabaseAccess(instance);
  const save = useSaveDocsSettings(instance);
  if (settings.error) return <ErrorState error={settings.error} title="Could not load the public docs settings" onRetry={() => settings.refetch()} />;
  if (!settings.data) return <LoadingState label="Loading the public docs settings…" />;
  const data = settings.data;
  return (
    <section aria-label="Public docs" className="rounded-lg border border-slate-200 bg-white p-5 shadow-xs">
      <h2 className="text-sm font-semibold text-slate-900">Public docs</h2>
      {!access.admin && <LockNote level="admin" />}
      <div className="mt-3">
        <Checkbox
          label="Public docs"
          hint="Anyone with the link can read this database's API docs, always current. They hold no key: Try it out asks the reader for theirs."
          checked={data.public}
          disabled={!access.admin || save.isPending}
          onChange={(e) => save.mutate({ public: e.target.checked })}
        />
      </div>
      {data.url && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <a data-testid="public-docs-url" className="font-mono text-xs text-indigo-600 hover:underline" href={data.url} target="_blank" rel="noreferrer">
            {data.url}
          </a>
          <CopyButton text={data.url} label="Copy URL" />
        </div>
      )}
      {!quotaOf(save.error) && <div className="mt-2"><FormError error={save.error} /></div>}
      <DomainPart key={data.domain ?? ""} instance={instance} settings={data} allowed={access.admin} />
    </section>
  );
};
