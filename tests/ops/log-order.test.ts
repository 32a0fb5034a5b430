// Request lines wait a few milliseconds to be written in one go (lib/ops/logger.ts); a line
// logged after them in the same turn (the shutdown's "stopped", an error) must still follow them in the log.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const script = `
import { endLog, logger, logRequest } from "./lib/ops/logger.ts";
logRequest({ reqId: "r1", method: "POST", route: "data", path: "/v1/x/items", status: 201, ms: 1 });
logger.info({ forced: false }, "stopped");
logRequest({ reqId: "r2", method: "GET", route: "data", path: "/v1/x/items", status: 200, ms: 1 });
await endLog();
`;

describe("the log's order", () => {
  it("a request line waiting for its turn's end is written before a line logged after it", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { env: { ...process.env, LOG_LEVEL: "info" }, encoding: "utf8" });
    const lines = out.trim().split("\n").map((line) => JSON.parse(line) as { msg: string; reqId?: string });
    expect(lines.map((l) => l.reqId ?? l.msg)).toEqual(["r1", "stopped", "r2"]);
  });
});
