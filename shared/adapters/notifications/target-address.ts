/**
 * The address rule of notification targets, for every channel that opens a connection itself
 * (webhook and Slack URLs at save, SMTP hosts at save and at delivery): link-local and cloud
 * metadata addresses never; loopback and private ones only when the project allows private network
 * targets. A refused host is refused before any connection, with one message whatever its port, so
 * the answers cannot be used to map which internal ports are open.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DoguError } from '../../domain/errors.ts';
import { classifyAddress } from '../http/address-policy.ts';

/**
 * The host's addresses once each passed the rule; `undefined` when the name does not resolve now
 * (at save: delivery checks again). `shown` names the target in messages (host or host:port).
 */
export async function checkedTargetAddresses(
  host: string,
  allowPrivateNetworks: boolean,
  shown: string,
): Promise<string[] | undefined> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true })).map((entry) => entry.address);
    } catch {
      return undefined;
    }
  }
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'metadata') {
      throw new DoguError(
        'bad_request',
        `The target ${shown} is a link-local or cloud metadata address, which notifications may never reach.`,
      );
    }
    if (kind === 'private' && !allowPrivateNetworks) {
      throw new DoguError(
        'bad_request',
        `The target ${shown} is on a loopback or private network; an admin must allow private network targets in the project's notification settings first.`,
      );
    }
  }
  return addresses;
}
