// Token attacks: every forged, foreign, stale or malformed token is a 401 with WWW-Authenticate, on every
// engine and through both adapters.
import { generateKeyPair, SignJWT, base64url } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { loadDatabase } from "../../lib/meta/load-schema";
import { expect401, MATRIX, useHarness } from "../contract/contract-helpers";
import { bearer, type Fixture, login, makeFixture, PASSWORD_A } from "./security-fixture";

describe.each(MATRIX)("JWT checks on $engine via $adapter", ({ engine, adapter }) => {
  const ctx = useHarness({ engine, adapter });
  let f: Fixture;
  let secret: Uint8Array;
  const claims = () => ({ db: f.db, role: "authenticated" });
  const sign = (alg: string, key: Uint8Array | CryptoKey, payload: Record<string, unknown> = claims(), sub = String(f.userA.id), exp = "1h") =>
    new SignJWT(payload).setProtectedHeader({ alg }).setSubject(sub).setIssuedAt().setExpirationTime(exp).sign(key);
  const get = (token: string, path = "/notes") => ctx.h.request("GET", `/v1/${f.db}${path}`, bearer(token));
  const part = (o: unknown) => base64url.encode(JSON.stringify(o));

  beforeAll(async () => {
    f = await makeFixture(ctx.h, `jwt ${engine} ${adapter}`);
    secret = (await loadDatabase(ctx.h.app, f.db))!.auth!.secret;
  });

  it("should allow a genuine HS256 token signed with this database's secret", async () => {
    expect((await get(await sign("HS256", secret))).status).toBe(200);
    expect((await get(f.userA.token)).status).toBe(200);
  });

  const attacks: [string, () => Promise<string>][] = [
    ["alg: none", async () => `${part({ alg: "none", typ: "JWT" })}.${part({ ...claims(), sub: String(f.userA.id), iat: 1, exp: 4e9 })}.`],
    ["alg: none without the trailing dot", async () => `${part({ alg: "none" })}.${part({ ...claims(), sub: String(f.userA.id), exp: 4e9 })}`],
    ["HS512 with the right secret", async () => sign("HS512", new Uint8Array([...secret, ...secret]))],
    ["HS384 with the right secret", async () => sign("HS384", new Uint8Array([...secret, ...secret]))],
    ["RS256 with an attacker's key pair", async () => sign("RS256", (await generateKeyPair("RS256")).privateKey)],
    ["an RS256 header over an HMAC signature (algorithm confusion)", async () => {
      const good = await sign("HS256", secret);
      const [, payload, signature] = good.split(".");
      return `${part({ alg: "RS256", typ: "JWT" })}.${payload}.${signature}`;
    }],
    ["a wrong secret", async () => sign("HS256", new TextEncoder().encode("x".repeat(32)))],
    ["an expired token", async () => new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).setSubject(String(f.userA.id)).setIssuedAt(1000).setExpirationTime(2000).sign(secret)],
    ["a tampered payload (sub switched to user B)", async () => {
      const [header, , signature] = f.userA.token.split(".");
      return `${header}.${part({ ...claims(), sub: String(f.userB.id), iat: Math.floor(Date.now() / 1000), exp: 4e9 })}.${signature}`;
    }],
    ["a tampered payload (role changed)", async () => {
      const [header, payload, signature] = f.userA.token.split(".");
      const decoded = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
      return `${header}.${part({ ...decoded, role: "service_role" })}.${signature}`;
    }],
    ["a two-part token", async () => f.userA.token.split(".").slice(0, 2).join(".")],
    ["a token with a fourth part", async () => `${f.userA.token}.AAAA`],
    ["a token claiming another database", async () => sign("HS256", secret, { ...claims(), db: "other_db_123" })],
    ["a token without a db claim", async () => sign("HS256", secret, { role: "authenticated" })],
    ["a token with a non-numeric sub", async () => sign("HS256", secret, claims(), "1 OR 1=1")],
    ["a token without exp", async () => new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).setSubject(String(f.userA.id)).setIssuedAt().sign(secret)],
    ["an empty-ish bearer value", async () => "e30"],
  ];
  it.each(attacks)("should block %s with 401", async (_name, make) => {
    const token = await make();
    const reply = await get(token);
    expect401(reply);
    expect401(await get(token, `/notes/${f.notes.a1}`));
    expect401(await ctx.h.request("DELETE", `/v1/${f.db}/notes/${f.notes.a1}`, bearer(token)));
    expect401(await ctx.h.request("GET", `/v1/${f.db}/auth/me`, bearer(token)));
  });

  it("should block a token from another database (its own secret) with 401, and allow it on its own database", async () => {
    const other = await makeFixture(ctx.h, `jwt other ${engine}`);
    expect401(await get(other.userA.token));
    expect((await ctx.h.request("GET", `/v1/${other.db}/notes`, bearer(other.userA.token))).status).toBe(200);
  });

  it("should block every token issued before a secret rotation with 401; a new login works", async () => {
    const before = await login(ctx.h, f.db, "a@example.com", PASSWORD_A);
    const rotate = await ctx.h.request("POST", `/api/v1/databases/${f.db}/auth/rotate-secret`);
    expect(rotate.status, rotate.text).toBe(200);
    expect(rotate.text).not.toMatch(/secret"\s*:/);
    expect401(await get(before));
    expect401(await get(f.userA.token));
    const after = await login(ctx.h, f.db, "a@example.com", PASSWORD_A);
    expect((await get(after)).status).toBe(200);
    f.userA.token = after;
    secret = (await loadDatabase(ctx.h.app, f.db))!.auth!.secret;
  });

  it("should block tokens once auth is switched off, and allow them again when it is on", async () => {
    const token = await login(ctx.h, f.db, "a@example.com", PASSWORD_A);
    await ctx.h.request("PUT", `/api/v1/databases/${f.db}/auth`, { body: { enabled: false } });
    expect401(await get(token));
    await ctx.h.request("PUT", `/api/v1/databases/${f.db}/auth`, { body: { enabled: true, signup: true } });
    expect((await get(token)).status).toBe(200);
  });

  it("the issued token is HS256 with sub, db, role, iat, exp and sid (its session) as documented", async () => {
    const [header, payload] = f.userA.token.split(".").slice(0, 2).map((p) => JSON.parse(new TextDecoder().decode(base64url.decode(p))));
    expect(header).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload).toEqual({ sub: String(f.userA.id), db: f.db, role: "authenticated", iat: expect.any(Number), exp: payload.iat + 3600, sid: expect.any(Number) });
  });
});
