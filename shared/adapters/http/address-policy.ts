/**
 * Which IP addresses an HTTP API action may reach (SSRF). Checked on the
 * address a connection will actually use, after DNS resolution.
 *
 * - metadata: link-local and cloud metadata endpoints. Always refused: they
 *   hand out the credentials of the machine Dogu runs on.
 * - private: loopback and private ranges. Allowed by default (the embedded
 *   runtime and on-premises APIs live there), refused with denyPrivateNetworks.
 *   Loopback (isLoopback) is refused on its own on AWS: there it is the Lambda
 *   Runtime API (127.0.0.1:9001), never a data source (decision 0058).
 * - public: everything else.
 *
 * IPv6 forms that embed an IPv4 address (mapped ::ffff:a.b.c.d, compatible
 * ::a.b.c.d, NAT64 64:ff9b::a.b.c.d) are judged by that IPv4 address.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'metadata' | 'private' | 'public';

const metadata = new BlockList();
// IPv4 link-local; 169.254.169.254 is the metadata service of AWS, GCP, Azure, OCI and others.
metadata.addSubnet('169.254.0.0', 16, 'ipv4');
// Alibaba Cloud's metadata service.
metadata.addAddress('100.100.100.200', 'ipv4');
metadata.addSubnet('fe80::', 10, 'ipv6');
// AWS's instance metadata service over IPv6 (Nitro).
metadata.addAddress('fd00:ec2::254', 'ipv6');

const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT, used inside some clouds
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking networks, sometimes used internally
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
privateNetworks.addAddress('::', 'ipv6');
privateNetworks.addAddress('::1', 'ipv6');
privateNetworks.addSubnet('fc00::', 7, 'ipv6'); // unique local addresses

const loopback = new BlockList();
loopback.addSubnet('0.0.0.0', 8, 'ipv4');
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::', 'ipv6');
loopback.addAddress('::1', 'ipv6');

/** Loopback and "this host" addresses (in any IPv6 form that embeds them): the machine itself. */
export function isLoopback(address: string): boolean {
  const plain = address.replace(/%.*$/, '');
  const version = isIP(plain);
  if (version === 0) return false;
  const ipv4 = version === 4 ? plain : embeddedIpv4(plain);
  return ipv4 === undefined ? loopback.check(plain, 'ipv6') : loopback.check(ipv4, 'ipv4');
}

export function classifyAddress(address: string): AddressClass {
  const plain = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not an address
  const version = isIP(plain);
  if (version === 0) throw new Error(`'${address}' is not an IP address.`);
  const ipv4 = version === 4 ? plain : embeddedIpv4(plain);
  const [candidate, family] = ipv4 === undefined ? [plain, 'ipv6' as const] : [ipv4, 'ipv4' as const];
  if (metadata.check(candidate, family)) return 'metadata';
  if (privateNetworks.check(candidate, family)) return 'private';
  return 'public';
}

/** The IPv4 address inside a mapped, compatible or NAT64 IPv6 address; undefined for other addresses. */
function embeddedIpv4(ipv6: string): string | undefined {
  const bytes = ipv6Bytes(ipv6);
  const zeroUpTo = (end: number) => bytes.slice(0, end).every((b) => b === 0);
  const mapped = zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff;
  // ::a.b.c.d, but not :: and ::1, which are IPv6's own unspecified and loopback addresses.
  const unspecifiedOrLoopback = zeroUpTo(15) && (bytes[15] === 0 || bytes[15] === 1);
  const compatible = zeroUpTo(12) && !unspecifiedOrLoopback;
  const nat64 =
    [0x00, 0x64, 0xff, 0x9b].every((b, i) => bytes[i] === b) && bytes.slice(4, 12).every((b) => b === 0);
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : undefined;
}

function ipv6Bytes(ipv6: string): number[] {
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap(expandDottedQuad));
  const [head = '', tail] = ipv6.toLowerCase().split('::');
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const zeros = Array.from({ length: 8 - headGroups.length - tailGroups.length }, () => 0);
  return [...headGroups, ...zeros, ...tailGroups].flatMap((group) => [group >> 8, group & 0xff]);
}

/** One 16-bit group, or two for a trailing a.b.c.d. */
function expandDottedQuad(group: string): number[] {
  if (!group.includes('.')) return [Number.parseInt(group, 16)];
  const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}
