"use client";
import { useState } from "react";
import { Button } from "./button";

/** Copies text to the clipboard and says so for a moment. */
export const CopyButton = ({ text, label = "Copy", className = "" }: { text: string; label?: string; className?: string }) => {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard needs a secure context; fall back to a hidden textarea.
      const el = document.createElement("textarea");
      el.value = text;
      document.body.append(el);
      el.select();
      document.execCommand("copy");
      el.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Button size="sm" onClick={copy} className={className} aria-label={`${label} to clipboard`}>
      {copied ? "Copied" : label}
    </Button>
  );
};
