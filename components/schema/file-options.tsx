"use client";
// The settings a `file` column has (several files, size limit, accepted types, thumbnail sizes, public
// downloads), each with the API's 422 for it beside its input.
import { Checkbox, Field, TextInput } from "../ui/field";
import type { ColumnDraft } from "./column-draft";

type Props = {
  draft: ColumnDraft;
  set: (fields: Partial<ColumnDraft>) => void;
  errors: { max_size?: string; accept?: string; thumbs?: string };
};

export const FileOptions = ({ draft, set, errors }: Props) => {
  const id = (part: string) => `${draft.key}-${part}`;
  return (
    <>
      <Field className="col-span-12 sm:col-span-4" label="Max size (bytes)" htmlFor={id("max_size")} hint="Empty: the install's limit" error={errors.max_size}>
        <TextInput id={id("max_size")} inputMode="numeric" value={draft.maxSize} onChange={(e) => set({ maxSize: e.target.value })} placeholder="5242880" invalid={!!errors.max_size} />
      </Field>
      <Field className="col-span-12 sm:col-span-4" label="Accept" htmlFor={id("accept")} hint="MIME types, comma separated; empty: any" error={errors.accept}>
        <TextInput id={id("accept")} value={draft.accept} onChange={(e) => set({ accept: e.target.value })} placeholder="image/*, application/pdf" invalid={!!errors.accept} autoComplete="off" />
      </Field>
      <Field className="col-span-12 sm:col-span-4" label="Thumbnail sizes" htmlFor={id("thumbs")} hint="WxH crops, Wx0 / 0xH keep the ratio, WxHf fits" error={errors.thumbs}>
        <TextInput id={id("thumbs")} value={draft.thumbs} onChange={(e) => set({ thumbs: e.target.value })} placeholder="100x100, 400x0" invalid={!!errors.thumbs} autoComplete="off" />
      </Field>
      <div className="col-span-12 flex flex-wrap gap-x-6 gap-y-1.5">
        <Checkbox label="Multiple files" hint="Up to 99 per row; the value is a list" checked={draft.multiple} onChange={(e) => set({ multiple: e.target.checked })} />
        <Checkbox label="Public downloads" hint="Anyone with the link can download, without a key" checked={draft.isPublic} onChange={(e) => set({ isPublic: e.target.checked })} />
      </div>
    </>
  );
};
