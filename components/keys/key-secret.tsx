"use client";
import { useState } from "react";
import { maskKey } from "../docs/curl-snippet";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";

/** A secret key, masked until revealed, with copy. */
export const KeySecret = ({ value, initiallyRevealed = false }: { value: string; initiallyRevealed?: boolean }) => {
  const [revealed, setRevealed] = useState(initiallyRevealed);
  return (
    <div className="flex items-center gap-1.5">
      <code data-testid="key-value" className={`rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800 ${revealed ? "break-all" : "whitespace-nowrap"}`}>
        {revealed ? value : maskKey(value)}
      </code>
      <Button size="sm" variant="ghost" onClick={() => setRevealed(!revealed)}>
        {revealed ? "Hide" : "Reveal"}
      </Button>
      <CopyButton text={value} />
    </div>
  );
};
