"use client";
import { type FormEvent, useState } from "react";
import { Button } from "../ui/button";
import { SelectInput, TextInput } from "../ui/field";
import { PAGE_SIZES } from "./build-query";

/** "Rows per page" over PAGE_SIZES. */
export const PageSizeSelect = ({ limit, onChange }: { limit: number; onChange: (limit: number) => void }) => (
  <label className="flex items-center gap-2 whitespace-nowrap">
    Rows per page
    <SelectInput className="w-20" value={limit} onChange={(e) => onChange(Number(e.target.value))}>
      {PAGE_SIZES.map((n) => (
        <option key={n}>{n}</option>
      ))}
    </SelectInput>
  </label>
);

/** "Go to page": a whole number from 1 to `pages` (any when the count is unknown), refused in place otherwise. */
export const JumpToPage = ({ pages, onGo }: { pages: number | null; onGo: (page: number) => void }) => {
  const [jump, setJump] = useState("");
  const [jumpError, setJumpError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jump);
    if (!/^\d+$/.test(jump) || n < 1 || (pages !== null && n > pages)) return setJumpError(`Enter a page from 1 to ${pages ?? "the last"}`);
    setJumpError(null);
    setJump("");
    onGo(n);
  };
  return (
    <>
      <form onSubmit={submit} className="flex items-center gap-1">
        <label htmlFor="jump-page" className="whitespace-nowrap">
          Go to page
        </label>
        <TextInput
          id="jump-page"
          inputMode="numeric"
          className="w-16"
          value={jump}
          onChange={(e) => setJump(e.target.value)}
          invalid={!!jumpError}
          aria-describedby={jumpError ? "jump-page-error" : undefined}
        />
        <Button size="sm" type="submit">
          Go
        </Button>
      </form>
      {jumpError && (
        <p id="jump-page-error" role="alert" className="w-full text-right text-xs text-red-700">
          {jumpError}
        </p>
      )}
    </>
  );
};
