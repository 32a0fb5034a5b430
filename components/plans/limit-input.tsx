import { Checkbox, Field, TextInput } from "../ui/field";
import type { LimitDraft } from "./plan-draft";

type Props = { id: string; label: string; hint: string; error?: string; value: LimitDraft; onChange: (next: LimitDraft) => void };

/** A whole-number limit with an "Unlimited" box beside it (unlimited is null in the API). */
export const LimitInput = ({ id, label, hint, error, value, onChange }: Props) => (
  <Field label={label} htmlFor={id} hint={hint} error={error}>
    <div className="flex items-center gap-3">
      <TextInput
        id={id}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        className="w-32"
        value={value.unlimited ? "" : value.text}
        placeholder={value.unlimited ? "∞" : undefined}
        disabled={value.unlimited}
        invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange({ ...value, text: e.target.value })}
      />
      <Checkbox label="Unlimited" aria-label={`${label}: unlimited`} checked={value.unlimited} onChange={(e) => onChange({ ...value, unlimited: e.target.checked })} />
    </div>
  </Field>
);
