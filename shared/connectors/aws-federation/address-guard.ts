/**
 * The HTTP kind's address rule (shared/adapters/http/address-policy.ts) for the AWS SDK: an S3 or
 * STS endpoint never reaches a cloud metadata address, nor a private one when
 * DOGU_HTTP_DENY_PRIVATE_NETWORKS is set. Names are checked after DNS (the agents' lookup), IP
 * literals before connecting (Node does not look them up).
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { classifyAddress } from '../../adapters/http/address-policy.ts';
import { DoguError } from '../../domain/errors.ts';

const refusal = (address: string, host: string, denyPrivate: boolean): string | undefined => {
  const kind = classifyAddress(address);
  if (kind === 'metadata')
    return `The endpoint ${host} is the cloud metadata address ${address}, which Dogu never connects to.`;
  if (kind === 'private' && denyPrivate)
    return `The endpoint ${host} is the private address ${address}, and this installation refuses private networks.`;
  return undefined;
};

/** Throws a DoguError when an endpoint written as an IP address breaks the rule. */
export function checkEndpointAddress(endpoint: string | undefined, denyPrivate: boolean): void {
  if (!endpoint) return;
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return;
  const problem = refusal(host, host, denyPrivate);
  if (problem) throw new DoguError('data_source_error', problem);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

function guardedLookup(denyPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const problem = refusal(address, hostname, denyPrivate);
        if (problem) return callback(Object.assign(new Error(problem), { code: 'EADDRREFUSED' }), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** Agents for the SDK's request handler, with keep-alive and the guarded lookup. */
export function guardedAgents(denyPrivate: boolean) {
  const lookup = guardedLookup(denyPrivate) as unknown as http.AgentOptions['lookup'];
  return {
    httpAgent: new http.Agent({ keepAlive: true, lookup }),
    httpsAgent: new https.Agent({ keepAlive: true, lookup }),
  };
}
