/**
 * A custom Athena endpoint obeys the address rule of HTTP data sources (address-policy.ts): the SDK
 * dials by itself, so the endpoint's addresses are checked before the client is used. Without an
 * endpoint the SDK talks to AWS's public regional endpoint.
 */
import { lookup } from 'node:dns/promises';
import { classifyAddress } from '../../adapters/http/address-policy.ts';
import { DoguError } from '../../domain/errors.ts';

export async function checkAthenaEndpoint(
  endpoint: string | undefined,
  denyPrivateNetworks: boolean,
): Promise<void> {
  if (!endpoint) return;
  const host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new DoguError('data_source_error', `The Athena endpoint ${host} could not be resolved.`);
  }
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'metadata')
      throw new DoguError(
        'data_source_error',
        `The Athena endpoint ${host} was refused: it is a link-local or cloud metadata address, which data sources may never reach.`,
      );
    if (kind === 'private' && denyPrivateNetworks)
      throw new DoguError(
        'data_source_error',
        `The Athena endpoint ${host} was refused: it is a loopback or private network address, and private networks are denied here (DOGU_HTTP_DENY_PRIVATE_NETWORKS).`,
      );
  }
}
