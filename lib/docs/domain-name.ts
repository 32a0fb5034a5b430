import { invalidField } from "../errors";

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A custom docs domain as typed by the owner → its lowercase hostname, or a 422 naming `domain`. A bare
 * hostname only: no scheme, port, path or trailing dot, at least two labels, not the CNAME target itself.
 */
export const parseDomain = (raw: string, cnameTarget: string): string => {
  const domain = raw.trim().toLowerCase();
  const refuse = (message: string) => invalidField("domain", "invalid_domain", message);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(domain)) throw refuse("domain is a hostname such as docs.example.com, without http:// or https://");
  if (/[:/?#@]/.test(domain)) throw refuse("domain is a hostname only, without a port, a path or a query (e.g. docs.example.com)");
  if (domain.endsWith(".")) throw refuse("domain must not end with a dot");
  const labels = domain.split(".");
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw refuse("domain must be a hostname such as docs.example.com: labels of letters, digits and hyphens, separated by dots");
  }
  if (/^\d+$/.test(labels[labels.length - 1])) throw refuse("domain must be a hostname, not an IP address");
  if (domain === cnameTarget) throw refuse(`domain cannot be ${cnameTarget} itself: that is where it must point`);
  return domain;
};
