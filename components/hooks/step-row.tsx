"use client";
import type { FieldError } from "../api/api-error";
import type { HookAction, HookStep } from "../api/use-hooks";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Field, SelectInput, TextInput } from "../ui/field";
import { Caret, ExpressionInput } from "./expression-input";

type Props = {
  action: HookAction;
  index: number;
  count: number;
  step: HookStep;
  columns: string[];
  /** The PUT's 422 problems for this step, fields relative to it (`expr`, `set`, `assert`, `message`). */
  problems: FieldError[];
  disabled: boolean;
  onChange: (step: HookStep) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
};

/** One step of an action's pipeline: `set column = expr` or `assert expr` with its message. */
export const StepRow = ({ action, index, count, step, columns, problems, disabled, onChange, onMove, onRemove }: Props) => {
  const id = `hook-${action}-${index}`;
  const isSet = "set" in step;
  const expression = isSet ? step.expr : step.assert;
  const problemOf = (field: string) => problems.find((p) => p.field === field);
  const exprProblem = problemOf(isSet ? "expr" : "assert") ?? problemOf("expr");
  const sideProblem = problemOf(isSet ? "set" : "message");
  const other = problems.filter((p) => p !== exprProblem && p !== sideProblem);
  const setExpression = (text: string) => onChange(isSet ? { ...step, expr: text } : { ...step, assert: text });
  const name = `${action} step ${index + 1}`;
  return (
    <li aria-label={name} className="rounded-md border border-slate-200 bg-slate-50/50 p-3">
      <div className="flex items-start gap-3">
        <div className="flex w-16 shrink-0 flex-col items-start gap-1 pt-1">
          <span className="font-mono text-xs text-slate-500">#{index}</span>
          <Badge tone={isSet ? "indigo" : "amber"}>{isSet ? "set" : "assert"}</Badge>
        </div>
        <div className="grid min-w-0 flex-1 gap-3">
          {isSet ? (
            <Field label="Column" htmlFor={`${id}-set`} error={sideProblem?.message} className="md:w-56">
              <SelectInput id={`${id}-set`} value={step.set} invalid={!!sideProblem} onChange={(e) => onChange({ ...step, set: e.target.value })} disabled={disabled}>
                {!columns.includes(step.set) && <option value={step.set}>{step.set || "— pick a column —"}</option>}
                {columns.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </SelectInput>
            </Field>
          ) : (
            <Field label="Message when false" htmlFor={`${id}-message`} error={sideProblem?.message} className="md:w-80">
              <TextInput id={`${id}-message`} value={step.message} invalid={!!sideProblem} onChange={(e) => onChange({ ...step, message: e.target.value })} disabled={disabled} />
            </Field>
          )}
          <Field label={isSet ? "= expression (CEL)" : "must be true (CEL)"} htmlFor={`${id}-expr`} error={exprProblem?.message} className="min-w-0">
            <ExpressionInput
              id={`${id}-expr`}
              label={`${name} expression`}
              value={expression}
              onChange={setExpression}
              columns={columns}
              withOld={action !== "insert"}
              invalid={!!exprProblem}
              disabled={disabled}
            />
            {exprProblem?.position !== undefined && <Caret text={expression} position={exprProblem.position} />}
          </Field>
          {other.map((p) => (
            <p key={p.field + p.code} role="alert" className="text-xs text-red-600">
              {p.message}
            </p>
          ))}
        </div>
        {!disabled && (
          <div className="flex shrink-0 flex-col gap-1">
            <Button size="sm" variant="ghost" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
              ↑
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
              ↓
            </Button>
            <Button size="sm" variant="ghost" aria-label={`Remove ${name}`} onClick={onRemove}>
              ✕
            </Button>
          </div>
        )}
      </div>
    </li>
  );
};
