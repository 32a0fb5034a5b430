import { z } from "zod";
import { component, Timestamp } from "./common";

export const DocsSettingsInput = component(
  "DocsSettingsInput",
  z
    .strictObject({
      public: z.boolean().meta({ description: "Serve the docs at /docs/{instance} (and on the verified domain) to readers without a key." }),
      domain: z
        .string()
        .max(253)
        .nullable()
        .optional()
        .meta({ description: "A hostname such as docs.example.com (needs a plan with custom domains); null removes it, absent keeps it. A new domain starts pending with a new TXT token." }),
    })
    .meta({ example: { public: true, domain: "docs.example.com" } }),
);

export const DocsSettings = component(
  "DocsSettings",
  z
    .object({
      public: z.boolean(),
      url: z.string().nullable().meta({ description: "The public docs page on this app's own address; null while not public." }),
      domain: z.string().nullable(),
      domain_status: z.enum(["none", "pending", "verified", "failing"]).meta({
        description: "none: no domain. pending: not verified yet. verified: CNAME and TXT right, served. failing: was verified, no longer right, not served.",
      }),
      domain_error: z.string().nullable().meta({ description: "Why the last check did not verify (e.g. `CNAME points to x`, `TXT token missing`, `DNS lookup timed out`)." }),
      checked_at: Timestamp.nullable(),
      cname_target: z.string().meta({ description: "The CNAME the domain must point to (DOCS_CNAME_TARGET)." }),
      txt: z.object({ name: z.string(), value: z.string() }).nullable().meta({ description: "The TXT record proving you control the domain; null without a domain." }),
    })
    .meta({
      example: {
        public: true,
        url: "https://tabula.example.net/docs/shop_7k2m9x",
        domain: "docs.example.com",
        domain_status: "pending",
        domain_error: "TXT token missing: _tabula-verify.docs.example.com has no TXT record",
        checked_at: "2024-05-01T12:00:00.000Z",
        cname_target: "tabula.example.net",
        txt: { name: "_tabula-verify.docs.example.com", value: "tabula-verify=3f9c2a…" },
      },
    }),
);
