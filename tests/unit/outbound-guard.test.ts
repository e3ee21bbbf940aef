/**
 * The outbound address guard (src/integrations/outbound): internal ranges of IPv4 and IPv6 (with the
 * IPv4-in-IPv6 forms) refused unless the operator allows the network; base URL form; the save-time
 * check over what a host name resolves to; OUTBOUND_ALLOWED_NETWORKS validated at start-up.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { addressProblem, checkBaseUrl, outboundPolicy, parseAddress, parseBaseUrl, parseNetworkList, parseOutboundUrl, STRICT_POLICY, trustingOrigin } from '../../src/integrations/outbound';

const problem = (address: string, policy = STRICT_POLICY, http = false) => addressProblem(parseAddress(address)!, policy, { http });
const allowing = (list: string) => outboundPolicy(parseNetworkList(list).networks);

describe('internal addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'], ['169.254.169.254', 'link-local'], ['100.64.0.1', 'carrier-grade NAT'], ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'], ['224.0.0.251', 'multicast'], ['239.255.255.250', 'multicast'], ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'], ['::', 'unspecified'], ['fc00::1', 'unique-local'], ['fd12:3456::1', 'unique-local'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'], ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:169.254.169.254', 'link-local'], ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'], ['2002:7f00:1::', 'loopback'], ['::127.0.0.1', 'IPv4-compatible'], ['[::1]', 'loopback'],
  ])('%s is refused (%s)', (address, range) => {
    expect(problem(address)).toContain(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '100.128.0.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(problem(address)).toBeNull();
    expect(problem(address, STRICT_POLICY, true)).toBe('must be an https URL');
  });

  it('lets through exactly the networks the operator lists, http included', () => {
    const policy = allowing('10.20.0.0/16, 127.0.0.1/32, fd00:1::/64');
    expect(problem('10.20.5.6', policy, true)).toBeNull();
    expect(problem('10.21.0.1', policy)).toContain('private');
    expect(problem('127.0.0.1', policy)).toBeNull();
    expect(problem('::ffff:127.0.0.1', policy)).toBeNull();
    expect(problem('127.0.0.2', policy)).toContain('loopback');
    expect(problem('fd00:1::5', policy)).toBeNull();
    expect(problem('fd00:2::5', policy)).toContain('unique-local');
    expect(problem('169.254.169.254', policy)).toContain('link-local');
  });
});

describe('base URLs', () => {
  it('takes an https URL without user, query or fragment', () => {
    expect(parseBaseUrl('https://api.myinvois.hasil.gov.my')).toBeInstanceOf(URL);
    for (const bad of ['https://lhdn.example/?', 'https://lhdn.example/?a=1', 'https://lhdn.example/#', 'https://lhdn.example#x']) expect(parseBaseUrl(bad)).toBe('must not carry a query or fragment');
    expect(parseBaseUrl('https://user:pw@lhdn.example')).toBe('must not carry a user name or password');
    expect(parseBaseUrl('https://@lhdn.example')).toBe('must not carry a user name or password');
    expect(parseBaseUrl('ftp://lhdn.example')).toBe('must be an https URL');
    expect(parseBaseUrl('lhdn.example')).toBe('must be an absolute https URL');
  });

  it('lets a webhook endpoint carry a query, never a fragment or a user name (however it is written)', () => {
    expect(parseOutboundUrl('https://hooks.example/in?source=finance', { allowQuery: true })).toBeInstanceOf(URL);
    expect(parseOutboundUrl('https://hooks.example/in?source=finance', { allowQuery: false })).toBe('must not carry a query or fragment');
    expect(parseOutboundUrl('https://hooks.example/in#x', { allowQuery: true })).toBe('must not carry a fragment');
    expect(parseOutboundUrl('https://hooks.example/in#', { allowQuery: true })).toBe('must not carry a fragment');
    expect(parseOutboundUrl('https://@hooks.example/in', { allowQuery: true })).toBe('must not carry a user name or password');
    expect(parseOutboundUrl('https://a:b@hooks.example/in', { allowQuery: true })).toBe('must not carry a user name or password');
  });

  it('checks what the host resolves to, names of metadata services, and the origins the service runs itself', async () => {
    const resolvesTo = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    expect(await checkBaseUrl('https://lhdn.example', STRICT_POLICY, resolvesTo('93.184.215.14'))).toBeNull();
    expect(await checkBaseUrl('https://rebind.example', STRICT_POLICY, resolvesTo('127.0.0.1'))).toContain('loopback');
    expect(await checkBaseUrl('https://v6.example', STRICT_POLICY, resolvesTo('fe80::1'))).toContain('link-local');
    expect(await checkBaseUrl('https://nowhere.example', STRICT_POLICY, async () => { throw new Error('ENOTFOUND'); })).toBe('its host name does not resolve');
    expect(await checkBaseUrl('http://lhdn.example', STRICT_POLICY, resolvesTo('93.184.215.14'))).toBe('must be an https URL');
    expect(await checkBaseUrl('https://metadata.google.internal', STRICT_POLICY, resolvesTo('93.184.215.14'))).toBe('names a cloud metadata service');
    expect(await checkBaseUrl('https://localhost', STRICT_POLICY)).toContain('loopback');
    expect(await checkBaseUrl('http://127.0.0.1:8765', STRICT_POLICY)).toContain('loopback');
    expect(await checkBaseUrl('http://127.0.0.1:8765', trustingOrigin(STRICT_POLICY, 'http://127.0.0.1:8765'))).toBeNull();
    expect(await checkBaseUrl('http://127.0.0.1:8766', trustingOrigin(STRICT_POLICY, 'http://127.0.0.1:8765'))).toContain('loopback');
  });
});

describe('OUTBOUND_ALLOWED_NETWORKS', () => {
  it('is checked at start-up with a message naming the variable and the wrong entries', () => {
    expect(loadConfig({ OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/8, fd00::/8' } as NodeJS.ProcessEnv).OUTBOUND_ALLOWED_NETWORKS.map((n) => n.text)).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(loadConfig({} as NodeJS.ProcessEnv).OUTBOUND_ALLOWED_NETWORKS).toEqual([]);
    expect(() => loadConfig({ OUTBOUND_ALLOWED_NETWORKS: '10.0.0.0/33,intranet' } as NodeJS.ProcessEnv)).toThrow(/OUTBOUND_ALLOWED_NETWORKS: not an IPv4 or IPv6 network in CIDR form \(e\.g\. 10\.20\.0\.0\/16\): "10\.0\.0\.0\/33", "intranet"/);
  });
});
