"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { Database } from "../api/types";
import { workspaceOf } from "../api/use-ai-builds";
import { SparklesIcon } from "../icons";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { AiBuilder } from "./ai-builder";
import { planOf } from "./build-text";

/** "Extend with AI" in a database's header: plans additions only (new tables, joins, their rows), applied on request. */
export const ExtendWithAi = ({ db }: { db: Database }) => {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)}>
        <SparklesIcon className="size-3.5 text-indigo-600" /> Extend with AI
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        wide
        title={`Extend ${db.name} with AI`}
        description="Describe what the app needs next: new tables (referencing the existing ones), joins and sample rows. Nothing existing is changed."
      >
        <AiBuilder
          database={{ instance: db.instance, name: db.name, workspace: workspaceOf(db) }}
          onApplied={(_, build) => {
            setOpen(false);
            const first = planOf(build).tables[0]?.name;
            router.push(`/databases/${db.instance}/schema${first ? `?table=${encodeURIComponent(first)}` : ""}`);
          }}
        />
      </Dialog>
    </>
  );
};
