// CPU accounting from /proc, to tell a server that is CPU-bound from one that waits (on the database, a lock,
// or other processes on a shared machine). Undefined off Linux.
import fs from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every mainstream Linux build

/** User + system CPU seconds a process has used so far. */
export const processCpuSeconds = (pid: number) => {
  try {
    // Fields after the `(comm)`, which may itself hold spaces: utime and stime are fields 14 and 15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

/** CPU seconds the whole machine has spent busy (all cores; not idle or iowait). */
export const machineBusySeconds = () => {
  try {
    const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = values;
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

export type CpuWindow = {
  /** Server process CPU seconds used in the window. */
  serverCpuSeconds?: number;
  /** Server process CPU as % of one core over the window. */
  serverPct?: number;
  /** Everything else on the machine except the server and this (autocannon) process, % of one core. */
  otherPct?: number;
};

/** Starts a measurement window; call the returned function at its end. */
export const startCpuWindow = (serverPid: number) => {
  const started = performance.now();
  const server = processCpuSeconds(serverPid);
  const machine = machineBusySeconds();
  const self = process.cpuUsage();
  return (): CpuWindow => {
    const wall = (performance.now() - started) / 1000;
    const serverEnd = processCpuSeconds(serverPid);
    const machineEnd = machineBusySeconds();
    const selfUsed = process.cpuUsage(self);
    if (server === undefined || serverEnd === undefined || machine === undefined || machineEnd === undefined) return {};
    const serverUsed = serverEnd - server;
    const other = machineEnd - machine - serverUsed - (selfUsed.user + selfUsed.system) / 1e6;
    return { serverCpuSeconds: serverUsed, serverPct: Math.round((100 * serverUsed) / wall), otherPct: Math.max(0, Math.round((100 * other) / wall)) };
  };
};
