// A DNS server on loopback (dns2, UDP) whose records each test sets: what Verify and the re-check look up
// through DNS_SERVERS. Also a "server" that never answers, for the resolver's timeout.
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dns2 from "dns2";

const { Packet } = dns2;
const NXDOMAIN = 3;

type Answer = InstanceType<typeof Packet>["answers"][number];
/** dns2's encoder reads plain objects; its typings ask for a full Resource. */
const answer = (fields: { name: string; type: number; domain?: string; data?: string }) => ({ class: Packet.CLASS.IN, ttl: 1, ...fields }) as unknown as Answer;

export type DnsRecords = { cname?: string; txt?: string[] };

export const startDnsServer = async (port = 0) => {
  const records = new Map<string, DnsRecords>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const record = records.get(question.name.toLowerCase());
      // A name with no records at all does not exist (NXDOMAIN); a name without the asked type answers empty.
      if (!record) response.header.rcode = NXDOMAIN;
      else if (question.type === Packet.TYPE.CNAME && record.cname) {
        response.answers.push(answer({ name: question.name, type: Packet.TYPE.CNAME, domain: record.cname }));
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of record.txt ?? []) response.answers.push(answer({ name: question.name, type: Packet.TYPE.TXT, data }));
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port, address: "127.0.0.1" } });
  const udp = (addresses as { udp?: AddressInfo }).udp!;
  return {
    /** For DNS_SERVERS: `127.0.0.1:<port>`. */
    address: `127.0.0.1:${udp.port}`,
    set: (name: string, value: DnsRecords) => void records.set(name.toLowerCase(), value),
    remove: (name: string) => void records.delete(name.toLowerCase()),
    close: () => server.close(),
  };
};

/** A UDP socket that reads every query and never answers. */
export const startSilentDnsServer = async () => {
  const socket = dgram.createSocket("udp4");
  socket.on("message", () => {});
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
};
