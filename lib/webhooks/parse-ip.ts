// An IP address's text as the bytes it names, so range checks never depend on how it was spelled: IPv4 dotted
// quads, and IPv6 in every textual form (`::` anywhere, 1–4 hex digits a group, a dotted IPv4 tail, a zone id).

export type ParsedIp = { family: 4 | 6; bytes: Uint8Array };

const parseIpv4 = (text: string): Uint8Array | undefined => {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return Uint8Array.from(parts.map(Number));
};

/** The 16-bit groups of one side of `::` (a dotted IPv4 tail counts as two), or undefined when malformed. */
const groupsOf = (side: string, last: boolean): number[] | undefined => {
  if (side === "") return [];
  const parts = side.split(":");
  const groups: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (last && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (!v4) return undefined;
      groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) groups.push(parseInt(part, 16));
    else return undefined;
  }
  return groups;
};

const parseIpv6 = (text: string): Uint8Array | undefined => {
  const zone = text.indexOf("%");
  const address = zone === -1 ? text : text.slice(0, zone);
  if (zone !== -1 && zone === text.length - 1) return undefined;
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1], true) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
};

/** The address's family and bytes (4 or 16), or undefined when the text is not an IP address. */
export const parseIp = (text: string): ParsedIp | undefined => {
  const v4 = parseIpv4(text);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = text.includes(":") ? parseIpv6(text) : undefined;
  return v6 ? { family: 6, bytes: v6 } : undefined;
};
