import { networkInterfaces } from 'node:os';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { afterEach, describe, expect, it } from 'vitest';
import { envNames } from '../core/config.ts';
import {
  checkWebhookUrl,
  embeddedIPv4,
  isAllowedAddress,
  isPublicAddress,
  isThisMachine,
  type Resolver,
  UnsafeWebhookUrl,
} from './address.ts';

// These suites describe the local stack's policy, where test endpoints may be private (a laptop).
process.env[envNames.webhookPrivateTargets] = 'allow';

/** A resolver answering fixed addresses per name; unknown names fail as DNS would. */
const fixed =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses;
  };

const resolveTo = (...addresses: string[]) => fixed({ 'hooks.example': addresses });

async function refusal(promise: Promise<unknown>): Promise<UnsafeWebhookUrl> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnsafeWebhookUrl);
  return error as UnsafeWebhookUrl;
}

describe('checkWebhookUrl in live mode', () => {
  it('refuses http', async () => {
    const error = await refusal(checkWebhookUrl('http://hooks.example/', 'live', resolveTo('93.184.216.34')));
    expect(error.message).toBe('url must use https in live mode');
  });

  it('accepts a name resolving to a public address, and returns what it resolved', async () => {
    const checked = await checkWebhookUrl(
      'https://hooks.example/cobro?x=1',
      'live',
      resolveTo('93.184.216.34'),
    );
    expect(checked.url.href).toBe('https://hooks.example/cobro?x=1');
    expect(checked.addresses).toEqual(['93.184.216.34']);
  });

  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['10.0.0.5', 'a private address'],
    ['172.16.3.4', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['224.0.0.1', 'a multicast address'],
    ['240.0.0.1', 'a non-public address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a private address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    // ipaddr.js reads ::a.b.c.d as IPv4-mapped; either reading leads to the embedded IPv4 address.
    ['::127.0.0.1', 'a loopback address'],
    ['::7f00:1', 'a loopback address'],
    ['::808:808', 'a non-public address'], // IPv4-compatible, even of a public address
    ['::5efe:a9fe:a9fe', 'a link-local address'], // ISATAP, bare
    ['::5efe:7f00:1', 'a loopback address'],
    ['2001:db8::200:5efe:a00:5', 'a private address'], // ISATAP, global prefix, u bit set
  ])('refuses a name resolving to %s', async (address, words) => {
    const error = await refusal(checkWebhookUrl('https://hooks.example/', 'live', resolveTo(address)));
    expect(error.message).toBe(`url resolves to ${words} (${address})`);
  });

  it('refuses a name that resolves to a public and a private address', async () => {
    const error = await refusal(
      checkWebhookUrl(
        'https://hooks.example/',
        'live',
        resolveTo('93.184.216.34', '2606:2800::1', '10.1.2.3'),
      ),
    );
    expect(error.message).toContain('10.1.2.3');
  });

  it.each([
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://0x7f.1/',
    'https://2130706433/',
    'https://[::ffff:127.0.0.1]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://[::5efe:169.254.169.254]/',
    'https://[::200:5efe:169.254.169.254]/',
    'https://[2001:db8::5efe:a9fe:a9fe]/',
    'https://[2606:2800:220:1:200:5efe:7f00:1]/',
  ])('refuses the IP literal %s without asking DNS', async (url) => {
    let asked = false;
    const resolver: Resolver = async () => {
      asked = true;
      return ['93.184.216.34'];
    };
    const error = await refusal(checkWebhookUrl(url, 'live', resolver));
    expect(error.message).toMatch(/^url host is a /);
    expect(asked).toBe(false);
  });

  it('accepts a public IP literal without asking DNS', async () => {
    const checked = await checkWebhookUrl('https://[2606:2800:220:1::1]:8443/', 'live', fixed({}));
    expect(checked.addresses).toEqual(['2606:2800:220:1::1']);
  });
});

describe('checkWebhookUrl in test mode', () => {
  it('accepts http to loopback and private addresses', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:8080/hook', 'test')).resolves.toMatchObject({
      addresses: ['127.0.0.1'],
    });
    await expect(checkWebhookUrl('http://[::1]:8080/hook', 'test')).resolves.toMatchObject({
      addresses: ['::1'],
    });
    const checked = await checkWebhookUrl(
      'http://laptop.lan/',
      'test',
      fixed({ 'laptop.lan': ['192.168.1.20'] }),
    );
    expect(checked.addresses).toEqual(['192.168.1.20']);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'url host is a link-local address (169.254.169.254)'],
    ['http://[fe80::1]/', 'url host is a link-local address (fe80::1)'],
    ['http://0.0.0.0:8080/', 'url host is an unspecified address (0.0.0.0)'],
    ['http://[::]/', 'url host is an unspecified address (::)'],
    ['http://[fd00:ec2::254]/', 'url host is a cloud metadata address (fd00:ec2::254)'],
    ['http://[::ffff:169.254.169.254]/', 'url host is a link-local address (::ffff:a9fe:a9fe)'],
  ])('refuses %s', async (url, message) => {
    const error = await refusal(checkWebhookUrl(url, 'test'));
    expect(error.message).toBe(message);
  });

  // The metadata address carried in IPv6: each form reaches 169.254.169.254 through a translator,
  // a relay or a stack that still honours it.
  it.each([
    ['NAT64, well-known prefix', '64:ff9b::a9fe:a9fe'],
    ['NAT64, local-use prefix as a /96', '64:ff9b:1::a9fe:a9fe'],
    ['NAT64, local-use prefix as a /64', '64:ff9b:1:0:a9:fea9:fe00:0'],
    ['NAT64, local-use prefix as a /56', '64:ff9b:1:a9:fe:a9fe::'],
    ['NAT64, local-use prefix as a /48', '64:ff9b:1:a9fe:a9:fe00::'],
    ['6to4', '2002:a9fe:a9fe::1'],
    ['Teredo (client address inverted)', '2001:0:102:304::5601:5601'],
    ['IPv4-compatible', '::a9fe:a9fe'],
    ['IPv4-translated (SIIT)', '::ffff:0:a9fe:a9fe'],
    ['IPv4-mapped', '::ffff:a9fe:a9fe'],
    ['ISATAP, bare', '::5efe:a9fe:a9fe'],
    ['ISATAP, bare, u bit set', '::200:5efe:a9fe:a9fe'],
    ['ISATAP, link-local prefix', 'fe80::5efe:a9fe:a9fe'],
    ['ISATAP, global prefix', '2001:db8::5efe:a9fe:a9fe'],
    ['ISATAP, global prefix, u bit set', '2001:db8:1:2:200:5efe:a9fe:a9fe'],
  ])('refuses the metadata address wrapped in IPv6: %s [%s]', async (_form, address) => {
    expect(embeddedIPv4(ipaddr.IPv6.parse(address)).map(String)).toContain('169.254.169.254');
    const error = await refusal(checkWebhookUrl(`http://[${address}]/latest/meta-data/`, 'test'));
    expect(error.message).toMatch(/^url host is a link-local address \(/);
    await refusal(checkWebhookUrl('http://hooks.example/', 'test', resolveTo(address)));
    expect(isAllowedAddress(address, 'live')).toBe(false);
  });

  it('still reaches private and loopback receivers written in those forms, and ::1 stays loopback', async () => {
    for (const address of [
      '64:ff9b::a00:5',
      '2002:c0a8:114::1',
      '::ffff:0:7f00:1',
      '::1',
      '::5efe:7f00:1',
      '2001:db8::200:5efe:c0a8:114',
    ]) {
      await expect(checkWebhookUrl(`http://[${address}]:8080/`, 'test')).resolves.toMatchObject({
        addresses: [address],
      });
    }
    expect(embeddedIPv4(ipaddr.IPv6.parse('::1'))).toEqual([]);
    expect(embeddedIPv4(ipaddr.IPv6.parse('2606:2800:220:1::1'))).toEqual([]);
    // A local-use NAT64 /96 address is not misread as a /48 one (its suffix is not zero).
    expect(embeddedIPv4(ipaddr.IPv6.parse('64:ff9b:1::808:808')).map(String)).toEqual(['8.8.8.8']);
    // Only 0000:5efe and 0200:5efe are ISATAP interface identifiers.
    expect(embeddedIPv4(ipaddr.IPv6.parse('2606:2800::100:5efe:a9fe:a9fe'))).toEqual([]);
    expect(embeddedIPv4(ipaddr.IPv6.parse('2606:2800::5eff:a9fe:a9fe'))).toEqual([]);
  });

  it('keeps a refusal the prefix earns, whatever the address carries', async () => {
    // Link-local and multicast prefixes stay refused though the ISATAP suffix carries loopback,
    // which test mode would otherwise allow.
    for (const address of ['fe80::5efe:7f00:1', 'ff02::200:5efe:c0a8:114']) {
      await refusal(checkWebhookUrl(`http://[${address}]:8080/`, 'test'));
    }
    // Two forms at once (6to4 carrying loopback, ISATAP carrying the metadata address): the stricter wins.
    const error = await refusal(checkWebhookUrl('http://[2002:7f00:1::5efe:a9fe:a9fe]/', 'test'));
    expect(error.message).toMatch(/^url host is a link-local address \(/);
  });

  it('refuses a name resolving to the metadata address', async () => {
    const error = await refusal(
      checkWebhookUrl('http://hooks.example/', 'test', resolveTo('169.254.169.254')),
    );
    expect(error.message).toBe('url resolves to a link-local address (169.254.169.254)');
  });
});

describe("the local stack's own services", () => {
  const saved = process.env[envNames.webhookRefusedPorts];
  afterEach(() => {
    if (saved === undefined) delete process.env[envNames.webhookRefusedPorts];
    else process.env[envNames.webhookRefusedPorts] = saved;
  });

  it('are never a webhook target on this machine, however the machine is named', async () => {
    process.env[envNames.webhookRefusedPorts] = '3000,8000,4569,8005,4010,41000';
    const own = Object.values(networkInterfaces())
      .flat()
      .map((entry) => entry?.address)
      // Link-local ones are refused as such already.
      .filter((address): address is string => address !== undefined && isAllowedAddress(address, 'test'));
    const urls = [
      'http://127.0.0.1:8005/clear-store',
      'http://127.0.0.2:8000/',
      'http://[::1]:4569/cobro-local-media/',
      'http://[::ffff:127.0.0.1]:4010/',
      'http://[::ffff:0:7f00:1]:8005/',
      'http://[64:ff9b::7f00:1]:8005/',
      'http://[::5efe:127.0.0.1]:8005/',
      'http://[2001:db8::200:5efe:7f00:1]:8000/',
      'http://localhost:41000/acquirer/faults',
      ...own.map((address) => `http://${address.includes(':') ? `[${address}]` : address}:8005/`),
    ];
    for (const url of urls) {
      const resolver = fixed({ localhost: ['127.0.0.1', '::1'] });
      const error = await refusal(checkWebhookUrl(url, 'test', resolver));
      expect(error.message, url).toMatch(
        /^url is one of the local stack's own services \(port \d+ of this machine\)$/,
      );
    }
  });

  it('leave other ports of this machine, and those ports on other machines, to test endpoints', async () => {
    process.env[envNames.webhookRefusedPorts] = '8005';
    await expect(checkWebhookUrl('http://127.0.0.1:8006/hook', 'test')).resolves.toBeDefined();
    await expect(
      checkWebhookUrl('http://laptop.lan:8005/hook', 'test', fixed({ 'laptop.lan': ['192.0.2.200'] })),
    ).resolves.toBeDefined();
    delete process.env[envNames.webhookRefusedPorts];
    await expect(checkWebhookUrl('http://127.0.0.1:8005/hook', 'test')).resolves.toBeDefined();
  });

  it("count loopback, unspecified and this machine's own addresses as this machine", () => {
    expect(isThisMachine('127.0.0.1')).toBe(true);
    expect(isThisMachine('127.255.0.9')).toBe(true);
    expect(isThisMachine('::1')).toBe(true);
    expect(isThisMachine('0.0.0.0')).toBe(true);
    expect(isThisMachine('::ffff:127.0.0.1')).toBe(true);
    expect(isThisMachine('::5efe:127.0.0.1')).toBe(true);
    expect(isThisMachine('2001:db8::200:5efe:7f00:1')).toBe(true);
    expect(isThisMachine('93.184.216.34')).toBe(false);
    expect(isThisMachine('not-an-ip')).toBe(false);
  });
});

describe('checkWebhookUrl on malformed URLs', () => {
  it.each([
    { url: 'https://user:secret@hooks.example/', message: 'url must not contain a username or password' },
    { url: 'https://user@hooks.example/', message: 'url must not contain a username or password' },
    {
      url: '/relative/path',
      message: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
    },
    {
      url: 'not a url',
      message: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
    },
    {
      url: 'https://hooks.example/"x',
      message: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
    },
    {
      url: 'https://hooks.example/\u0000',
      message: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
    },
    {
      url: 'https://hooks;evil.example/',
      message: 'url must name its host as a domain name or an IP address',
    },
    { url: 'ftp://hooks.example/', message: 'url must use http or https' },
    { url: 'file:///etc/passwd', message: 'url must use http or https' },
    { url: `https://hooks.example/${'a'.repeat(2048)}`, message: 'url must be at most 2048 characters' },
  ])('refuses with "$message" in both modes', async ({ url, message }) => {
    for (const mode of ['test', 'live'] as const) {
      const error = await refusal(checkWebhookUrl(url, mode, resolveTo('93.184.216.34')));
      expect(error.message).toBe(message);
    }
  });

  it('says so when the host does not resolve, or resolves to nothing', async () => {
    const unknown = await refusal(checkWebhookUrl('https://nowhere.example/', 'live', fixed({})));
    expect(unknown.message).toBe('url host could not be resolved');
    const empty = await refusal(checkWebhookUrl('https://hooks.example/', 'live', resolveTo()));
    expect(empty.message).toBe('url host could not be resolved');
  });
});

describe('isPublicAddress and isAllowedAddress', () => {
  it('tells public unicast from the rest', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    expect(isPublicAddress('::ffff:93.184.216.34')).toBe(true);
    expect(isPublicAddress('192.168.0.1')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
    expect(isAllowedAddress('not-an-ip', 'test')).toBe(false);
  });

  it('lets test mode reach private networks but not link-local ones', () => {
    expect(isAllowedAddress('10.0.0.5', 'test')).toBe(true);
    expect(isAllowedAddress('10.0.0.5', 'live')).toBe(false);
    expect(isAllowedAddress('169.254.0.1', 'test')).toBe(false);
  });

  it('judges every IPv6 form carrying an IPv4 address at least as strictly as that address', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    const hex = ([a, b, c, d]: number[]) =>
      `${(((a as number) << 8) | (b as number)).toString(16)}:${(((c as number) << 8) | (d as number)).toString(16)}`;
    const inverted = (octets: number[]) => octets.map((octet) => octet ^ 0xff);
    fc.assert(
      fc.property(v4, (octets) => {
        const address = octets.join('.');
        const forms = [
          `64:ff9b::${hex(octets)}`,
          `64:ff9b:1::${hex(octets)}`,
          `2002:${hex(octets)}::1`,
          `2001:0:102:304::${hex(inverted(octets))}`,
          `::ffff:0:${hex(octets)}`,
          `::5efe:${hex(octets)}`,
          `::200:5efe:${hex(octets)}`,
          `2001:db8::5efe:${hex(octets)}`,
          `2606:2800:220:1:200:5efe:${hex(octets)}`,
        ];
        for (const form of forms) {
          expect(embeddedIPv4(ipaddr.IPv6.parse(form)).map(String), form).toContain(address);
          if (!isAllowedAddress(address, 'test')) expect(isAllowedAddress(form, 'test'), form).toBe(false);
          if (!isAllowedAddress(address, 'live')) expect(isAllowedAddress(form, 'live'), form).toBe(false);
        }
      }),
    );
  });

  it('never lets live mode reach an address it would not call public, whatever the spelling', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
    fc.assert(
      fc.property(v4, (address) => {
        const mapped = `::ffff:${address}`;
        expect(isAllowedAddress(address, 'live')).toBe(isPublicAddress(address));
        // An IPv4-mapped spelling is judged as the IPv4 address it wraps.
        expect(isAllowedAddress(mapped, 'live')).toBe(isAllowedAddress(address, 'live'));
        expect(isAllowedAddress(mapped, 'test')).toBe(isAllowedAddress(address, 'test'));
        // Anything live may reach, test may reach too.
        if (isAllowedAddress(address, 'live')) expect(isAllowedAddress(address, 'test')).toBe(true);
      }),
    );
  });
});

describe('a deployed stage (no private targets)', () => {
  it('holds test endpoints to public addresses too, while still allowing http', async () => {
    expect(isAllowedAddress('127.0.0.1', 'test', false)).toBe(false);
    expect(isAllowedAddress('10.1.2.3', 'test', false)).toBe(false);
    expect(isAllowedAddress('93.184.216.34', 'test', false)).toBe(true);
    const saved = process.env[envNames.webhookPrivateTargets];
    delete process.env[envNames.webhookPrivateTargets];
    try {
      await expect(checkWebhookUrl('http://127.0.0.1:9001/runtime', 'test')).rejects.toThrow(/loopback/);
      const checked = await checkWebhookUrl('http://receiver.example/hook', 'test', async () => [
        '93.184.216.34',
      ]);
      expect(checked.url.protocol).toBe('http:');
    } finally {
      process.env[envNames.webhookPrivateTargets] = saved;
    }
  });
});
