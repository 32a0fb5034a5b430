// BENCH_EVENTS=1: while Tabula is measured, one webhook (to a sink on loopback that answers 204) and one feed
// subscriber (all tables) ride along; the feed's commit → receive latency (event `at` to arrival) is reported.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type EventsSide = { stop: () => Promise<string> };

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

export const startEventsSide = async (url: string, instance: string, apiKey: string): Promise<EventsSide> => {
  let delivered = 0;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      delivered++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const headers = { "x-api-key": apiKey, "content-type": "application/json" };
  const created = await fetch(`${url}/api/v1/databases/${instance}/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/` }) });
  if (created.status !== 201) throw new Error(`creating the bench webhook failed: ${created.status} ${await created.text()}`);
  const hook = (await created.json()) as { id: number };
  const abort = new AbortController();
  const lags: number[] = [];
  const feed = await fetch(`${url}/v1/${instance}/_changes`, { headers: { "x-api-key": apiKey }, signal: abort.signal });
  void (async () => {
    const reader = feed.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const data = /\ndata: (.*)$/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (data) lags.push(Date.now() - Date.parse((JSON.parse(data) as { at: string }).at));
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  return {
    stop: async () => {
      abort.abort();
      await fetch(`${url}/api/v1/databases/${instance}/webhooks/${hook.id}`, { method: "DELETE", headers: { "x-api-key": apiKey } });
      sink.close();
      const sorted = [...lags].sort((a, b) => a - b);
      return `feed ${lags.length} events, commit→feed p50 ${percentile(sorted, 50)} ms p99 ${percentile(sorted, 99)} ms; webhook ${delivered} deliveries received during the run`;
    },
  };
};
