/** The project allow-list (decision 0155): which entries are valid, and which URLs they allow. */
import { describe, expect, it } from 'vitest';
import { allowedHostSchema } from '../../shared/domain/allowed-host-schema.ts';
import { isAllowedUrl, parseAllowedHost } from '../../shared/domain/allowed-hosts.ts';

describe('allow-list entries', () => {
  it('takes host names, IP addresses, *. wildcards and ports, in one lower-case spelling', () => {
    expect(allowedHostSchema.parse(' Images.Example.COM ')).toBe('images.example.com');
    expect(allowedHostSchema.parse('*.example.com')).toBe('*.example.com');
    expect(allowedHostSchema.parse('intranet.example.com:8443')).toBe('intranet.example.com:8443');
    expect(allowedHostSchema.parse('127.0.0.1:9000')).toBe('127.0.0.1:9000');
    expect(allowedHostSchema.parse('[::1]:8080')).toBe('[::1]:8080');
    expect(allowedHostSchema.parse('localhost')).toBe('localhost');
  });

  it.each([
    ['https://example.com', 'without scheme or path'],
    ['example.com/images', 'without scheme or path'],
    ['', 'is empty'],
    ['exa mple.com', 'is not a host name'],
    ['-bad.example.com', 'is not a host name'],
    ['ex*ample.com', 'wildcard only as its first label'],
    ['*.*.example.com', 'wildcard only as its first label'],
    ['*.10.0.0.1', 'IP address'],
    ['example.com:0', 'port outside'],
    ['example.com:70000', 'port outside'],
    ['example.com:', 'port outside'],
    [`${'a'.repeat(64)}.example.com`, 'is not a host name'],
  ])('refuses %j, naming it (%s)', (entry, why) => {
    const parsed = parseAllowedHost(entry);
    expect(parsed).toHaveProperty('problem');
    const { problem } = parsed as { problem: string };
    expect(problem).toContain(`'${entry}'`);
    expect(problem).toContain(why);
    expect(allowedHostSchema.safeParse(entry).success).toBe(false);
  });
});

describe('which URLs an allow-list allows', () => {
  const list = ['images.example.com', '*.cdn.example.net', 'intranet.example.com:8443', '127.0.0.1:9000'];

  it('allows a listed host on the default ports of http and https', () => {
    expect(isAllowedUrl('https://images.example.com/a.png', list)).toBe(true);
    expect(isAllowedUrl('http://IMAGES.example.com/a.png', list)).toBe(true);
    expect(isAllowedUrl('https://images.example.com:443/a.png', list)).toBe(true);
  });

  it('a host without a port in the list is not allowed on another port', () => {
    expect(isAllowedUrl('https://images.example.com:8443/a.png', list)).toBe(false);
    expect(isAllowedUrl('https://intranet.example.com:8443/x', list)).toBe(true);
    expect(isAllowedUrl('https://intranet.example.com/x', list)).toBe(false);
    expect(isAllowedUrl('http://127.0.0.1:9000/x.png', list)).toBe(true);
    expect(isAllowedUrl('http://127.0.0.1:9001/x.png', list)).toBe(false);
  });

  it('a wildcard allows subdomains at any depth, not the name itself nor look-alikes', () => {
    expect(isAllowedUrl('https://a.cdn.example.net/x', list)).toBe(true);
    expect(isAllowedUrl('https://a.b.cdn.example.net/x', list)).toBe(true);
    expect(isAllowedUrl('https://cdn.example.net/x', list)).toBe(false);
    expect(isAllowedUrl('https://evilcdn.example.net/x', list)).toBe(false);
    expect(isAllowedUrl('https://images.example.com.evil.test/x', list)).toBe(false);
    expect(isAllowedUrl('https://evil.test/?images.example.com', list)).toBe(false);
    expect(isAllowedUrl('https://images.example.com@evil.test/x', list)).toBe(false);
  });

  it('only http and https, and the console itself is always allowed', () => {
    expect(isAllowedUrl('ftp://images.example.com/a.png', list)).toBe(false);
    expect(isAllowedUrl('javascript:alert(1)', list)).toBe(false);
    expect(isAllowedUrl('not a url', list)).toBe(false);
    expect(isAllowedUrl('http://127.0.0.1:8787/demo-api/v1/media/a.png', [], 'http://127.0.0.1:8787')).toBe(
      true,
    );
    expect(isAllowedUrl('http://127.0.0.1:8788/a.png', [], 'http://127.0.0.1:8787')).toBe(false);
    expect(isAllowedUrl('https://images.example.com/a.png', [])).toBe(false);
  });
});
