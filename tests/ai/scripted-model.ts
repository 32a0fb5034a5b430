// A scripted OpenAI-compatible model on loopback: POST /v1/chat/completions answers with the next scripted reply
// (tool calls or plain text, non-streaming, with `usage`) and records every request body, so a test can check
// what the agent sent back to the model. An exhausted script answers 500, so a test that over-calls fails.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ToolCall = { name: string; args: unknown };

/** One answer: tool calls, plain text, or an HTTP failure. */
export type Reply = { tools: ToolCall[] } | { text: string } | { status: number; error: string };

export type ChatRequest = {
  model: string;
  stream?: boolean;
  tools?: { type: string; function: { name: string } }[];
  messages: { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
};

/** Token counts of the n-th answer (0-based): distinct per answer, so a sum is told from the last one. */
export const usageOf = (n: number) => ({ prompt_tokens: 10 * (n + 1), completion_tokens: n + 1, total_tokens: 11 * (n + 1) });

/** The usage an agent of `steps` answers reports: the sum of usageOf(0..steps-1). */
export const summedUsage = (steps: number) => {
  const sum = (steps * (steps + 1)) / 2;
  return { input_tokens: 10 * sum, output_tokens: sum, total_tokens: 11 * sum };
};

/** `arguments` is sent as given when it is a string (to script malformed JSON), else as JSON. */
const completion = (reply: Reply, n: number) => {
  const base = { id: `chatcmpl-${n}`, object: "chat.completion", created: 1_700_000_000, model: "scripted", usage: usageOf(n) };
  if ("text" in reply) return { ...base, choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }] };
  const calls = (reply as { tools: ToolCall[] }).tools.map((call, i) => ({
    id: `call_${n}_${i}`,
    type: "function",
    function: { name: call.name, arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args) },
  }));
  return { ...base, choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: calls }, finish_reason: "tool_calls" }] };
};

export type ScriptedModel = {
  baseUrl: string;
  /** Every request body received, in order. */
  requests: ChatRequest[];
  /** Queues replies; once the queue is empty, `fallback` (if set) answers. */
  script: (...replies: Reply[]) => void;
  fallback: ((n: number) => Reply) | undefined;
  /** Forgets the queue, the fallback and the recorded requests. */
  reset: () => void;
  close: () => Promise<void>;
};

export const startScriptedModel = async (): Promise<ScriptedModel> => {
  const queue: Reply[] = [];
  const model: ScriptedModel = {
    baseUrl: "",
    requests: [],
    script: (...replies) => void queue.push(...replies),
    fallback: undefined,
    reset: () => {
      queue.length = 0;
      model.requests.length = 0;
      model.fallback = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return void res.writeHead(404).end();
      const n = model.requests.push(JSON.parse(raw)) - 1;
      const reply = queue.shift() ?? model.fallback?.(n) ?? { status: 500, error: `the script has no reply for request ${n + 1}` };
      const [status, body] = "status" in reply ? [reply.status, { error: { message: reply.error, type: "server_error" } }] : [200, completion(reply, n)];
      // A failure asks for a quick retry (as OpenAI's retry-after-ms does), so the SDK's one retry takes 10 ms, not 2 s.
      const headers = { "content-type": "application/json", ...(status === 200 ? {} : { "retry-after-ms": "10" }) };
      res.writeHead(status, headers).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  model.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return model;
};

/** A loopback port nothing listens on: bound, then closed. */
export const deadBaseUrl = async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
};

/** The agent's config pointing at `baseUrl`. */
export const aiConfig = (baseUrl: string, maxSteps = 6) => ({ baseUrl, model: "scripted", maxSteps, tools: true });

/** The tool messages of one request: what each earlier tool call answered, by call id. */
export const toolResults = (request: ChatRequest) =>
  Object.fromEntries(request.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id!, m.content ?? ""]));
