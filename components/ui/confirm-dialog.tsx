"use client";
import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { Dialog, DialogActions } from "./dialog";
import { Field, TextInput } from "./field";
import { FormError } from "./states";

type Props = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What happens, stated before the user confirms. */
  consequences: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  error?: unknown;
  /** When set, the user must type this text to enable the button (destructive, irreversible actions). */
  typeToConfirm?: string;
  danger?: boolean;
};

export const ConfirmDialog = ({ open, onClose, title, consequences, confirmLabel, onConfirm, pending, error, typeToConfirm, danger = true }: Props) => {
  const [typed, setTyped] = useState("");
  const close = () => {
    setTyped("");
    onClose();
  };
  const ready = !typeToConfirm || typed === typeToConfirm;
  return (
    <Dialog open={open} onClose={close} title={title}>
      <div className="space-y-2 text-sm text-slate-700">{consequences}</div>
      {typeToConfirm && (
        <Field
          className="mt-4"
          htmlFor="confirm-text"
          label={
            <>
              Type <code className="rounded bg-slate-100 px-1 font-mono text-slate-900">{typeToConfirm}</code> to confirm
            </>
          }
        >
          <TextInput id="confirm-text" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" autoFocus />
        </Field>
      )}
      <div className="mt-4">
        <FormError error={error} />
      </div>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button variant={danger ? "danger" : "primary"} disabled={!ready} pending={pending} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
