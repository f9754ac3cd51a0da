/**
 * The SSRF rule applied where a connection is made: resolve the host, refuse metadata (always),
 * loopback (when denied) and private addresses (when denied), and hand back exactly the checked
 * addresses to connect to, so a second, unchecked resolution (DNS rebinding) cannot slip past.
 * Used by NodeHttpClient and by the agents given to client libraries (checked-agents.ts).
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { DoguError } from '../../domain/errors.ts';
import { classifyAddress, isLoopback } from './address-policy.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface AddressRules {
  /** Refuse loopback and private addresses too (env DOGU_HTTP_DENY_PRIVATE_NETWORKS). */
  denyPrivateNetworks?: boolean;
  /** Refuse loopback even where a call allows private networks (AWS: the Lambda Runtime API). */
  denyLoopback?: boolean;
  /** Host name to addresses; dns.lookup by default. Tests point made-up names at 127.0.0.1. */
  resolveHost?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export const defaultResolveHost = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** `[::1]` in a URL is `::1` to a socket. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/** Resolves the host and applies the rule to every address, before any connection is made. */
export async function checkedAddresses(
  url: URL,
  rules: AddressRules,
  options: { signal?: AbortSignal; allowPrivate?: boolean } = {},
): Promise<ResolvedAddress[]> {
  const host = bareHost(url.hostname);
  const version = isIP(host);
  const resolve = rules.resolveHost ?? defaultResolveHost;
  const addresses =
    version === 0
      ? await abortable(resolve(host), options.signal)
      : [{ address: host, family: version === 6 ? (6 as const) : (4 as const) }];
  if (addresses.length === 0) throw Object.assign(new Error('no address'), { code: 'ENOTFOUND' });
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'metadata') {
      throw new DoguError(
        'data_source_error',
        `The HTTP request to ${url.origin} was refused: ${url.hostname} is a link-local or cloud metadata address, which actions may never reach.`,
      );
    }
    if (rules.denyLoopback && isLoopback(address)) {
      throw new DoguError(
        'data_source_error',
        `The HTTP request to ${url.origin} was refused: ${url.hostname} is a loopback address, which actions may never reach on this runtime.`,
      );
    }
    if (kind === 'private' && rules.denyPrivateNetworks && !options.allowPrivate) {
      throw new DoguError(
        'data_source_error',
        `The HTTP request to ${url.origin} was refused: ${url.hostname} is a loopback or private network address, and private networks are denied here (DOGU_HTTP_DENY_PRIVATE_NETWORKS; on AWS a data source may allow them: allowPrivateNetworks).`,
      );
    }
  }
  return addresses;
}

/** A socket lookup that answers only with the checked addresses. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(null, [...addresses]);
      return;
    }
    const chosen = addresses.find((a) => !options.family || a.family === options.family) ?? addresses[0]!;
    callback(null, chosen.address, chosen.family);
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
