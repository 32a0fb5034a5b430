import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/** A new secret key: `sk_` + 256 random bits, base64url. */
export const generateSecretKey = () => `sk_${randomBytes(32).toString("base64url")}`;

/** Lookup hash. Keys carry 256 random bits, so a fast hash is enough (no brute force is feasible). */
export const hashSecretKey = (key: string) => createHash("sha256").update(key).digest("hex");

export const encryptKey = (secret: Buffer, key: string) => {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secret, iv);
  const body = Buffer.concat([cipher.update(key, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
};

export const decryptKey = (secret: Buffer, stored: string) => {
  const [iv, tag, body] = stored.split(".").map((p) => Buffer.from(p, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", secret, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
};
