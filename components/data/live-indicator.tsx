"use client";
import type { LiveState } from "./use-live-records";
import { Button } from "../ui/button";

const LOOK: Record<LiveState, { dot: string; text: string; label: string }> = {
  live: { dot: "bg-emerald-500", text: "text-emerald-800", label: "Live" },
  connecting: { dot: "bg-amber-400", text: "text-amber-800", label: "Connecting…" },
  paused: { dot: "bg-slate-400", text: "text-slate-700", label: "Paused" },
  offline: { dot: "bg-red-500", text: "text-red-700", label: "Offline" },
};

/** Whether the grid follows the change feed, with the switch that pauses it. */
export const LiveIndicator = ({ state, paused, onToggle }: { state: LiveState; paused: boolean; onToggle: () => void }) => {
  const look = LOOK[state];
  return (
    <span className="inline-flex items-center gap-2">
      <span role="status" aria-label={`Live updates: ${look.label}`} className={`inline-flex items-center gap-1.5 text-xs font-medium ${look.text}`}>
        <span aria-hidden className={`size-2 rounded-full ${look.dot} ${state === "live" ? "animate-pulse" : ""}`} />
        {look.label}
      </span>
      <Button size="sm" onClick={onToggle} aria-pressed={paused}>
        {paused ? "Resume" : "Pause"}
      </Button>
    </span>
  );
};
