import Link from "next/link";
import type { QuotaInfo } from "../api/api-error";
import { limitText, nounOf, plural } from "../plans/plan-wording";

/** A 402 quota_exceeded: the server's message, which limit was hit, the credits left, and where to raise it. */
export const QuotaError = ({ message, quota }: { message: string; quota: QuotaInfo }) => (
  <div role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
    <p>{message}</p>
    <p className="mt-1 font-medium">
      Used {quota.used.toLocaleString()} of {limitText(quota.limit)} {nounOf(quota.kind, quota.limit)}; {plural(quota.credits, "credit")} left.
    </p>
    <Link href="/settings/plan" className="mt-1 inline-block font-medium text-indigo-700 underline hover:text-indigo-600">
      Open Plan &amp; usage
    </Link>
  </div>
);
