// Where a webhook may point, for every spelling of an address: IPv6 text read into its 16 bytes, and IPv6 forms
// that carry an IPv4 address (NAT64, 6to4, IPv4-compatible, -mapped, -translated, Teredo) judged by the IPv4
// address they reach; at the unit level, when a webhook is registered, and when a delivery connects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEventsConfig } from "../../lib/events/events-config";
import { parseIp } from "../../lib/webhooks/parse-ip";
import { postWebhook } from "../../lib/webhooks/post-webhook";
import { refusedAddress } from "../../lib/webhooks/target-address";
import { createDatabase } from "../contract/contract-helpers";
import { ENGINES, type Harness, startHarness } from "../helpers/harness";
import { startReceiver } from "./receiver";

const NEVER = "; webhooks never go there";
const UNLESS = " (set WEBHOOK_ALLOW_PRIVATE=1 to allow)";
const PRIVATE = "a private or loopback address";

/** Each refused address, what it reaches, and whether WEBHOOK_ALLOW_PRIVATE=1 lets it through. */
const REFUSED: [string, string, "never" | "private"][] = [
  ["64:ff9b::a9fe:a9fe", `is NAT64 for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["::ffff:0:a9fe:a9fe", `is IPv4-translated for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["2002:a9fe:a9fe::", `is 6to4 for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["::a9fe:a9fe", `is IPv4-compatible for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["::ffff:a9fe:a9fe", `is IPv4-mapped for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["2001:0:4136:e378:8000:63bf:5601:5601", `is Teredo for 169.254.169.254, link-local (cloud metadata)${NEVER}`, "never"],
  ["64:ff9b:1::a9fe:a9fe", `is local-use NAT64 (64:ff9b:1::/48, never public)${NEVER}`, "never"],
  ["fe80::1%eth0", `is link-local${NEVER}`, "never"],
  ["FEBF:0000:0000:0000:0000:0000:0000:0001", `is link-local${NEVER}`, "never"],
  ["::127.0.0.1", `is IPv4-compatible for 127.0.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["::ffff:127.0.0.1", `is IPv4-mapped for 127.0.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["0:0:0:0:0:ffff:7f00:1", `is IPv4-mapped for 127.0.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["64:ff9b::a00:1", `is NAT64 for 10.0.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["64:ff9b::192.168.0.1", `is NAT64 for 192.168.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["2002:0a00:0001::1", `is 6to4 for 10.0.0.1, ${PRIVATE}${UNLESS}`, "private"],
  ["fec0::1", `is site-local (fec0::/10), ${PRIVATE}${UNLESS}`, "private"],
  ["fd12:3456::1", `is unique local (fc00::/7), ${PRIVATE}${UNLESS}`, "private"],
  ["ff02::1", `is multicast, ${PRIVATE}${UNLESS}`, "private"],
  ["0000:0000:0000:0000:0000:0000:0000:0001", `is ${PRIVATE}${UNLESS}`, "private"],
  ["::", `is the unspecified address, ${PRIVATE}${UNLESS}`, "private"],
  ["127.0.0.1", `is ${PRIVATE}${UNLESS}`, "private"],
  ["169.254.169.254", `is link-local (cloud metadata)${NEVER}`, "never"],
];

/** Public addresses, plain and carried in an IPv6 form. */
const ALLOWED = ["2606:4700:4700::1111", "2606:4700:4700:0:0:0:0:1111", "93.184.216.34", "64:ff9b::5db8:d822", "::ffff:93.184.216.34", "2002:5db8:d822::1", "2001:db8::1"];

describe("IPv6 text read into bytes", () => {
  const hex = (text: string) => Buffer.from(parseIp(text)?.bytes ?? []).toString("hex");
  it.each([
    ["::", "0".repeat(32)],
    ["::1", `${"0".repeat(31)}1`],
    ["1::", `0001${"0".repeat(28)}`],
    ["0001:0002:0003:0004:0005:0006:0007:0008", "00010002000300040005000600070008"],
    ["1:2:3:4:5:6:7:8", "00010002000300040005000600070008"],
    ["1:2:3::6:7:8", "00010002000300000000000600070008"],
    ["::ffff:169.254.169.254", `${"0".repeat(20)}ffffa9fea9fe`],
    ["1:2:3:4:5:6:10.0.0.1", "0001000200030004000500060a000001"],
    ["fe80::1%25eth0", `fe80${"0".repeat(27)}1`],
    ["ABCD::EF", `abcd${"0".repeat(24)}00ef`],
  ])("%s is %s", (text, bytes) => {
    expect(hex(text)).toBe(bytes);
  });

  it.each(["1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1::", "1::2:", "12345::", "::1.2.3", "::256.0.0.1", "1.2.3.4::", "fe80::1%", "g::1", "::01.2.3.4"])("%s is not an address", (text) => {
    expect(parseIp(text)).toBeUndefined();
  });
});

describe("outbound address rules for every form", () => {
  it.each(REFUSED)("should block %s without WEBHOOK_ALLOW_PRIVATE", (address, why) => {
    expect(refusedAddress(address, false)).toBe(`${address} ${why}`);
  });
  it.each(REFUSED)("%s with WEBHOOK_ALLOW_PRIVATE=1: refused only when it reaches a never-allowed address", (address, why, kind) => {
    expect(refusedAddress(address, true)).toBe(kind === "never" ? `${address} ${why}` : undefined);
  });
  it.each(ALLOWED)("should allow the public %s", (address) => {
    expect(refusedAddress(address, false)).toBeUndefined();
  });
  it("refuses text that is not an address", () => {
    expect(refusedAddress("::ffff:999.0.0.1", true)).toBe("::ffff:999.0.0.1 is not an IP address");
  });

  it("a delivery to an IPv6 form of loopback is refused before it connects; WEBHOOK_ALLOW_PRIVATE=1 delivers it", async () => {
    const receiver = await startReceiver();
    const { port } = new URL(receiver.url);
    for (const host of ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]"]) {
      const refused = await postWebhook({ url: `http://${host}:${port}/hook`, headers: {}, body: "{}", timeoutMs: 1000, allowPrivate: false });
      expect(refused.error).toBe(`refused: ::ffff:7f00:1 is IPv4-mapped for 127.0.0.1, ${PRIVATE}${UNLESS}`);
    }
    expect(receiver.received).toEqual([]);
    const allowed = await postWebhook({ url: `http://[::ffff:127.0.0.1]:${port}/hook`, headers: {}, body: "{}", timeoutMs: 1000, allowPrivate: true });
    expect(allowed.status).toBe(200);
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });
});

describe.each(ENGINES)("registering webhook targets on %s", (engine) => {
  let strict: Harness;
  let lenient: Harness;
  let strictDb: string;
  let lenientDb: string;
  const config = (allowPrivate: boolean) => ({ config: { events: { ...readEventsConfig({} as NodeJS.ProcessEnv), allowPrivate, pollMs: 50, timeoutMs: 500 } } });

  beforeAll(async () => {
    strict = await startHarness(engine, "node", config(false));
    lenient = await startHarness(engine, "node", config(true));
    strictDb = await createDatabase(strict, "targets", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
    lenientDb = await createDatabase(lenient, "targets", [{ name: "orders", columns: [{ name: "total", type: "int" }] }]);
  }, 60_000);
  afterAll(async () => {
    await strict?.close();
    await lenient?.close();
  });

  const register = (h: Harness, db: string, url: string) => h.request("POST", `/api/v1/databases/${db}/webhooks`, { body: { url } });
  const urlOf = (address: string) => (address.includes(":") ? `http://[${address.replace("%", "%25")}]:8080/hook` : `http://${address}:8080/hook`);

  it.each(REFUSED.filter(([address]) => !address.includes("%")))("should block %s: 422 naming url", async (address, why) => {
    const reply = await register(strict, strictDb, urlOf(address));
    expect(reply.status, reply.text).toBe(422);
    // The URL parser writes the host its own way (`[::ffff:7f00:1]`): the message names that spelling.
    const host = new URL(urlOf(address)).hostname.replace(/^\[|\]$/g, "");
    const message = `${host} ${why}`;
    expect(reply.body).toEqual({ error: "validation_failed", message, errors: [{ field: "url", code: "refused_address", message }] });
  });

  it.each(ALLOWED)("should allow the public %s: 201", async (address) => {
    const reply = await register(strict, strictDb, urlOf(address));
    expect(reply.status, reply.text).toBe(201);
  });

  it("with WEBHOOK_ALLOW_PRIVATE=1 a loopback receiver registers and the link-local forms are still refused", async () => {
    expect((await register(lenient, lenientDb, "http://127.0.0.1:8080/hook")).status).toBe(201);
    expect((await register(lenient, lenientDb, "http://[::127.0.0.1]:8080/hook")).status).toBe(201);
    for (const [address] of REFUSED.filter(([a, , kind]) => kind === "never" && !a.includes("%"))) {
      const reply = await register(lenient, lenientDb, urlOf(address));
      expect({ address, status: reply.status, code: reply.body.errors?.[0].code }).toEqual({ address, status: 422, code: "refused_address" });
    }
  });
});
