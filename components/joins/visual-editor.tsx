"use client";
import "@xyflow/react/dist/style.css";
import { Background, ConnectionMode, Controls, type Connection, type Edge, type Node, ReactFlow, applyNodeChanges, type NodeChange } from "@xyflow/react";
import { useCallback, useMemo, useState } from "react";
import type { Join, JoinDefinition, Table } from "../api/types";
import { Button } from "../ui/button";
import { SelectInput } from "../ui/field";
import { type CanvasState, canvasDefinition, canvasFromDefinition, EMPTY_CANVAS, outputNameFor, proposedPairs } from "./canvas-definition";
import { JoinTypePicker } from "./join-type-picker";
import { KeyPairPicker } from "./key-pair-picker";
import { PreviewTable } from "./preview-table";
import { SaveJoinBar } from "./save-join-bar";
import { CanvasContext, TableNode } from "./table-node";
import { useJoinPreview } from "./use-join-preview";

const NODE_TYPES = { table: TableNode };
const tableOf = (handle: string) => handle.slice(0, handle.indexOf("."));
const refOf = (handle: string | null | undefined) => (handle ?? "").replace(/:[lr]$/, "");

type Props = { instance: string; tables: Table[]; /** A saved join to edit: its name and definition. */ editing?: { name: string; definition: JoinDefinition }; onSaved?: (saved: Join) => void };

const nodeFor = (tables: Table[], name: string, i: number): Node => ({ id: name, type: "table", position: { x: 40 + i * 320, y: 30 }, data: { table: tables.find((t) => t.name === name) } });

/**
 * Tables as nodes; drag from a column to a column of another table to make a key pair (or pick both columns
 * from the selects below, or accept a pair the references propose); tick columns to output.
 */
export const VisualEditor = ({ instance, tables, editing, onSaved }: Props) => {
  const [state, setState] = useState<CanvasState>(() => (editing ? canvasFromDefinition(editing.definition) : EMPTY_CANVAS));
  // React Flow measures nodes through onNodesChange; the nodes (position, size) live here in full.
  const [nodes, setNodes] = useState<Node[]>(() => state.tables.map((t, i) => nodeFor(tables, t, i)));
  const [adding, setAdding] = useState("");
  const available = tables.filter((t) => !state.tables.includes(t.name));

  const addTable = (name: string) => {
    if (!name) return;
    setNodes((ns) => [...ns, nodeFor(tables, name, ns.length)]);
    setState((s) => ({ ...s, tables: [...s.tables, name] }));
    setAdding("");
  };
  const actions = useMemo(
    () => ({
      state,
      toggleOutput: (ref: string) =>
        setState((s) =>
          s.outputs.some((o) => o.column === ref)
            ? { ...s, outputs: s.outputs.filter((o) => o.column !== ref) }
            : { ...s, outputs: [...s.outputs, { column: ref, as: outputNameFor(s, ref) }] },
        ),
      renameOutput: (ref: string, as: string) => setState((s) => ({ ...s, outputs: s.outputs.map((o) => (o.column === ref ? { ...o, as } : o)) })),
      removeTable: (table: string) => {
        setNodes((ns) => ns.filter((n) => n.id !== table));
        setState((s) => ({
          tables: s.tables.filter((t) => t !== table),
          left: s.left?.filter((t) => t !== table),
          pairs: s.pairs.filter(([a, b]) => tableOf(a) !== table && tableOf(b) !== table),
          outputs: s.outputs.filter((o) => tableOf(o.column) !== table),
        }));
      },
    }),
    [state],
  );

  const edges: Edge[] = state.pairs.map(([a, b]) => ({
    id: `${a}=${b}`,
    source: tableOf(a),
    target: tableOf(b),
    sourceHandle: `${a}:r`,
    targetHandle: `${b}:l`,
    label: "=",
    style: { stroke: "#6366f1", strokeWidth: 2 },
  }));
  const onNodesChange = useCallback((changes: NodeChange[]) => setNodes((ns) => applyNodeChanges(changes, ns)), []);
  const addPair = useCallback((a: string, b: string) => {
    if (!a || !b || tableOf(a) === tableOf(b)) return;
    setState((s) => (s.pairs.some((p) => (p[0] === a && p[1] === b) || (p[0] === b && p[1] === a)) ? s : { ...s, pairs: [...s.pairs, [a, b]] }));
  }, []);
  const removePair = (a: string, b: string) => setState((s) => ({ ...s, pairs: s.pairs.filter(([x, y]) => !(x === a && y === b)) }));
  const onConnect = useCallback((c: Connection) => addPair(refOf(c.sourceHandle), refOf(c.targetHandle)), [addPair]);
  const proposals = proposedPairs(state, tables);
  const onEdgesDelete = useCallback((gone: Edge[]) => setState((s) => ({ ...s, pairs: s.pairs.filter(([a, b]) => !gone.some((e) => e.id === `${a}=${b}`)) })), []);

  const definition = canvasDefinition(state);
  const ready = definition && definition.joins.length > 0 && definition.columns.length > 0 ? definition : undefined;
  const preview = useJoinPreview(instance, ready);

  return (
    <CanvasContext.Provider value={actions}>
      <div className="space-y-4">
        <div className="flex items-center gap-2">
          <SelectInput aria-label="Table to add" className="w-56" value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">Choose a table…</option>
            {available.map((t) => <option key={t.name} value={t.name}>{t.name}</option>)}
          </SelectInput>
          <Button onClick={() => addTable(adding)} disabled={!adding}>Add table</Button>
        </div>
        <KeyPairPicker
          tables={tables.filter((t) => state.tables.includes(t.name))}
          pairs={state.pairs}
          proposals={proposals}
          onAdd={addPair}
          onRemove={removePair}
        />
        <JoinTypePicker
          tables={definition?.joins.map((j) => j.table) ?? []}
          left={state.left ?? []}
          onChange={(table, type) => setState((s) => ({ ...s, left: type === "left" ? [...(s.left ?? []).filter((t) => t !== table), table] : (s.left ?? []).filter((t) => t !== table) }))}
        />
        <div className="h-[460px] rounded-md border border-slate-200 bg-slate-50" data-testid="join-canvas">
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onConnect={onConnect}
            onEdgesDelete={onEdgesDelete}
            connectionMode={ConnectionMode.Loose}
            fitView={false}
            proOptions={{ hideAttribution: true }}
          >
            <Background />
            <Controls showInteractive={false} />
          </ReactFlow>
        </div>
        <section aria-label="Preview" className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-800">Preview (first rows)</h3>
          <PreviewTable rows={preview.rows} error={preview.error} pending={preview.pending} />
        </section>
        <SaveJoinBar instance={instance} input={ready} editing={editing?.name} onSaved={onSaved} />
      </div>
    </CanvasContext.Provider>
  );
};
