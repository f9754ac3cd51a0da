/**
 * A project's allow-list of hosts (docs/views.md "Allowed hosts", decision 0155): the hosts its
 * views may load images and media from, and navigate to without asking the viewer. One entry is a
 * host name or IP address, optionally `*.` before a name (any subdomain of it, not the name
 * itself) and optionally `:port`. Without a port an entry means the scheme's default port (80 for
 * http, 443 for https), as a CSP host source does, so the console's policy can say the same thing.
 */

export interface AllowedHost {
  /** Lower case, without the `*.`. */
  host: string;
  /** `*.host`: subdomains of `host` at any depth, not `host` itself. */
  wildcard: boolean;
  port?: number;
}

const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const hostName = new RegExp(`^${label}(?:\\.${label})*$`);
const ipv4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv6 = /^\[[0-9a-f:.]+\]$/;

/** Most entries a project keeps: the list is read on every view load. */
export const maxAllowedHosts = 100;

/** The entry parsed, or why it is not one (a sentence that names the entry). */
export function parseAllowedHost(entry: string): AllowedHost | { problem: string } {
  const text = entry.trim().toLowerCase();
  const bad = (why: string) => ({ problem: `'${entry}' ${why}` });
  if (text === '') return bad('is empty: write a host name such as example.com.');
  if (text.includes('://') || text.includes('/'))
    return bad('is not a host: write the host name only, without scheme or path (example.com).');
  let rest = text;
  let port: number | undefined;
  const portMatch = /:(\d*)$/.exec(rest);
  if (portMatch && !(rest.startsWith('[') && !rest.includes(']:'))) {
    const digits = portMatch[1]!;
    const value = Number(digits);
    if (!/^\d{1,5}$/.test(digits) || value < 1 || value > 65535) return bad('has a port outside 1–65535.');
    port = value;
    rest = rest.slice(0, portMatch.index);
  }
  const wildcard = rest.startsWith('*.');
  if (wildcard) rest = rest.slice(2);
  if (rest.includes('*')) return bad('may have a wildcard only as its first label (*.example.com).');
  const isIp = ipv4.test(rest) || ipv6.test(rest);
  if (isIp && wildcard) return bad('is an IP address: a wildcard applies to host names only.');
  if (!isIp && (rest.length > 253 || !hostName.test(rest)))
    return bad('is not a host name (letters, digits, hyphens and dots, such as images.example.com).');
  return { host: rest, wildcard, ...(port === undefined ? {} : { port }) };
}

/** The entry written back in its one spelling (lower case, trimmed). */
export function formatAllowedHost(entry: AllowedHost): string {
  return `${entry.wildcard ? '*.' : ''}${entry.host}${entry.port === undefined ? '' : `:${entry.port}`}`;
}

const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Whether `url` (absolute) goes to a host the list allows, or to `ownOrigin` (the console's own
 * origin, always allowed). Only http and https can be allowed; anything unparsable is not.
 */
export function isAllowedUrl(url: string, allowed: readonly string[], ownOrigin?: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const defaultPort = defaultPorts[target.protocol];
  if (defaultPort === undefined) return false;
  if (ownOrigin && target.origin === ownOrigin) return true;
  const host = target.hostname.toLowerCase();
  const port = target.port === '' ? defaultPort : Number(target.port);
  return allowed.some((text) => {
    const entry = parseAllowedHost(text);
    if ('problem' in entry) return false;
    if ((entry.port ?? defaultPort) !== port) return false;
    return entry.wildcard ? host.endsWith(`.${entry.host}`) : host === entry.host;
  });
}

/** The host (with a port other than the default) a URL names, for "not loaded from …" messages. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
