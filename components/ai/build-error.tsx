import { ApiRequestError } from "../api/api-error";
import { FormError } from "../ui/states";

/**
 * Why a build or an apply was refused: the shared error line (a 402 with its limit and credits), then every
 * problem a 422 ai_plan_invalid listed, by field.
 */
export const BuildError = ({ error }: { error: unknown }) => {
  const problems = error instanceof ApiRequestError ? error.errors : [];
  return (
    <div className="space-y-2">
      <FormError error={error} />
      {problems.length > 0 && (
        <ul className="space-y-0.5 rounded-md border border-red-100 bg-white px-3 py-2 text-xs text-red-700" aria-label="Problems">
          {problems.map((p) => (
            <li key={`${p.field}:${p.message}`}>
              <code className="font-mono text-red-800">{p.field}</code>: {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
