/**
 * The SSRF guard for webhook URLs: which URLs an account may register and which addresses a
 * delivery may connect to. Live endpoints must be https and resolve only to public unicast
 * addresses; test endpoints may reach a developer's own machine or network (loopback, private), but
 * never link-local or cloud-metadata addresses, however written (an IPv4 address carried inside an
 * IPv6 one is judged as itself), and never the local stack's own services. send.ts checks again at
 * delivery time and connects to exactly the addresses checked here.
 */
import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Mode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { maxUrlLength, parseWebUrl, type WebUrlProblem } from '../core/web-url.ts';

/** Resolves a host name to its IP addresses (IPv4 and IPv6, in the resolver's order). */
export type Resolver = (host: string) => Promise<string[]>;

/** A URL that passed the check, and the resolved addresses that passed with it. */
export interface CheckedUrl {
  url: URL;
  addresses: string[];
}

/** A webhook URL refused; `message` is plain English, fit for a 400 answer to the API user. */
export class UnsafeWebhookUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeWebhookUrl';
  }
}

/** The system resolver, as a connection would use it (hosts file included). */
const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, order: 'verbatim' })).map((entry) => entry.address);

/**
 * AWS's IPv6 instance-metadata address. It lies in fc00::/7 (refused in live mode anyway), but test
 * mode allows unique-local addresses, so it is named once here.
 */
const awsMetadataV6 = ipaddr.parse('fd00:ec2::254');

type Address = ReturnType<typeof ipaddr.parse>;

/** Parses an address, unwrapping IPv4-mapped IPv6 (::ffff:a.b.c.d) so it is judged as IPv4. */
function parseAddress(address: string): Address | null {
  if (!ipaddr.isValid(address)) return null;
  try {
    return ipaddr.process(address);
  } catch {
    return null;
  }
}

/**
 * Where IPv6 carries an IPv4 address: the prefix, the positions of the four IPv4 bytes among the 16,
 * the bytes that must be zero and the bytes that must hold given values for the form to apply, and
 * what the IPv4 bytes are XORed with.
 */
interface Embedding {
  range: [ipaddr.IPv6, number];
  at: readonly number[];
  zero?: readonly number[];
  equal?: Readonly<Record<number, number>>;
  xor?: number;
}

const cidr = (text: string) => ipaddr.IPv6.parseCIDR(text);
const last32 = [12, 13, 14, 15];

/**
 * The IPv6 forms that carry an IPv4 address. Each reaches (through a translator, a relay or a stack
 * that still honours it) what the IPv4 address reaches, so the IPv4 address is what is judged.
 */
const embeddings: readonly Embedding[] = [
  // NAT64, the well-known prefix (RFC 6052): always a /96.
  { range: cidr('64:ff9b::/96'), at: last32 },
  // NAT64, the local-use prefix (RFC 8215): a network may use /48, /56, /64 or /96 inside it, each
  // placing the address differently around the zero "u" byte (RFC 6052 section 2.2).
  { range: cidr('64:ff9b:1::/48'), at: [6, 7, 9, 10], zero: [8, 11, 12, 13, 14, 15] },
  { range: cidr('64:ff9b:1::/48'), at: [7, 9, 10, 11], zero: [8, 12, 13, 14, 15] },
  { range: cidr('64:ff9b:1::/48'), at: [9, 10, 11, 12], zero: [8, 13, 14, 15] },
  { range: cidr('64:ff9b:1::/48'), at: last32 },
  // 6to4 (RFC 3056): the IPv4 address follows 2002:.
  { range: cidr('2002::/16'), at: [2, 3, 4, 5] },
  // Teredo (RFC 4380): the client's IPv4 address, its bits inverted, ends the address.
  { range: cidr('2001::/32'), at: last32, xor: 0xff },
  // IPv4-compatible (RFC 4291, deprecated) ::a.b.c.d; :: and ::1 are judged as themselves.
  { range: cidr('::/96'), at: last32 },
  // IPv4-mapped ::ffff:a.b.c.d, and IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC 6145).
  { range: cidr('::ffff:0:0/96'), at: last32 },
  { range: cidr('::ffff:0:0:0/96'), at: last32 },
  // ISATAP (RFC 5214): the interface identifier 0000:5efe, or 0200:5efe with the u bit set, then the
  // IPv4 address, under any /64 prefix (fe80::, a global one, or none at all as in ::5efe:a.b.c.d).
  { range: cidr('::/0'), at: last32, equal: { 8: 0x00, 9: 0x00, 10: 0x5e, 11: 0xfe } },
  { range: cidr('::/0'), at: last32, equal: { 8: 0x02, 9: 0x00, 10: 0x5e, 11: 0xfe } },
];

/** The IPv4 addresses an IPv6 address carries (none for most). */
export function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const range = ip.range();
  if (range === 'loopback' || range === 'unspecified') return [];
  const bytes = ip.toByteArray();
  return embeddings
    .filter(
      (form) =>
        ip.match(form.range) &&
        (form.zero ?? []).every((at) => bytes[at] === 0) &&
        Object.entries(form.equal ?? {}).every(([at, value]) => bytes[Number(at)] === value),
    )
    .map((form) => new ipaddr.IPv4(form.at.map((at) => ((bytes[at] as number) ^ (form.xor ?? 0)) & 0xff)));
}

/** Ranges test mode refuses even though it allows loopback and private networks. */
const refusedInTest = new Set(['linkLocal', 'unspecified', 'metadata', 'multicast', 'broadcast']);

/**
 * The address's ipaddr.js range, with refinements: AWS's IPv6 metadata address is `metadata`; an
 * IPv6 address carrying an IPv4 address that is not public unicast takes that address's range (so
 * 64:ff9b::a9fe:a9fe is link-local, as 169.254.169.254 is) unless its own range is stricter; the rest
 * of ::/96 is `reserved`.
 */
function rangeOf(ip: Address): string {
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  if (v6.toNormalizedString() === awsMetadataV6.toNormalizedString()) return 'metadata';
  const range = v6.range();
  const inner = embeddedIPv4(v6)
    .map((carried) => carried.range())
    .filter((innerRange) => innerRange !== 'unicast');
  // The strictest judgment wins. ISATAP sits under any prefix, so fe80::5efe:7f00:1 is link-local
  // (refused) though the loopback it carries is not, and one address can hold two forms at once
  // (2002:7f00:1::5efe:a9fe:a9fe is 6to4 of loopback and ISATAP of the metadata address).
  const refused = [range, ...inner].find((candidate) => refusedInTest.has(candidate));
  if (refused !== undefined) return refused;
  if (inner[0] !== undefined) return inner[0];
  // ::/96 embeds an IPv4 address some stacks still route; it is never a legitimate receiver.
  if (range === 'unicast' && v6.parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  return range;
}

/** Whether an address is public unicast: the only kind a live webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const ip = parseAddress(address);
  return ip !== null && rangeOf(ip) === 'unicast';
}

/** Whether this stage lets test endpoints reach loopback and private addresses (the local stack). */
export const privateTargetsAllowed = () => process.env[envNames.webhookPrivateTargets] === 'allow';

/**
 * Whether a delivery in `mode` may connect to `address`: live, public unicast only; test, the same
 * unless the stage allows private targets (the local stack), and then never link-local or metadata.
 */
export function isAllowedAddress(
  address: string,
  mode: Mode,
  allowPrivate = privateTargetsAllowed(),
): boolean {
  const ip = parseAddress(address);
  if (ip === null) return false;
  const range = rangeOf(ip);
  return mode === 'live' || !allowPrivate ? range === 'unicast' : !refusedInTest.has(range);
}

/** The ports of this machine no webhook may reach: the local stack's own services (none deployed). */
export function refusedPorts(): Set<number> {
  const listed = process.env[envNames.webhookRefusedPorts] ?? '';
  return new Set(
    listed
      .split(',')
      .map((port) => Number(port.trim()))
      .filter((port) => Number.isInteger(port) && port > 0),
  );
}

/** An address as one spelling, for comparison: IPv4 dotted, IPv6 in full. */
function canonical(ip: Address): string {
  return ip.kind() === 'ipv4' ? ip.toString() : (ip as ipaddr.IPv6).toNormalizedString();
}

/** This machine's own interface addresses, canonical. */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      const ip = parseAddress(entry.address.replace(/%.*$/, ''));
      if (ip) own.add(canonical(ip));
    }
  }
  return own;
}

/**
 * Whether a connection to `address` lands on this machine: loopback, unspecified (0.0.0.0 reaches
 * this machine), one of its interfaces' addresses, or an IPv6 form carrying any of these.
 */
export function isThisMachine(address: string): boolean {
  const ip = parseAddress(address);
  if (ip === null) return false;
  const forms: Address[] = [ip, ...(ip.kind() === 'ipv6' ? embeddedIPv4(ip as ipaddr.IPv6) : [])];
  const own = ownAddresses();
  return forms.some((form) => {
    const range = form.range();
    return range === 'loopback' || range === 'unspecified' || own.has(canonical(form));
  });
}

/** How a refused range reads in an error message. */
const rangeWords: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  linkLocal: 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  carrierGradeNat: 'a carrier-grade NAT address',
};

function describeAddress(address: string): string {
  const ip = parseAddress(address);
  const words = ip === null ? undefined : rangeWords[rangeOf(ip)];
  return words ?? 'a non-public address';
}

const urlProblems: Record<WebUrlProblem, string> = {
  malformed: 'url must be an absolute http or https URL, without spaces, quotes or control characters',
  scheme: 'url must use http or https',
  credentials: 'url must not contain a username or password',
  host: 'url must name its host as a domain name or an IP address',
  too_long: `url must be at most ${maxUrlLength} characters`,
};

/** `[::1]` → `::1`; a URL keeps IPv6 literals in brackets. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * Checks a webhook URL for `mode` and resolves its host; throws UnsafeWebhookUrl when the URL is
 * malformed or any address it resolves to may not be reached.
 */
export async function checkWebhookUrl(
  raw: string,
  mode: Mode,
  resolve: Resolver = systemResolver,
): Promise<CheckedUrl> {
  const parsed = parseWebUrl(raw);
  if ('problem' in parsed) throw new UnsafeWebhookUrl(urlProblems[parsed.problem]);
  const url = parsed.url;
  if (mode === 'live' && url.protocol !== 'https:')
    throw new UnsafeWebhookUrl('url must use https in live mode');

  const host = bareHost(url.hostname);
  // IP literals (the URL parser has already normalized forms such as 0x7f.1) skip DNS.
  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnsafeWebhookUrl('url host could not be resolved');
    }
    if (addresses.length === 0) throw new UnsafeWebhookUrl('url host could not be resolved');
  }

  // One bad answer refuses the lot: a name answering public and private could be steered to either.
  for (const address of addresses) {
    if (!isAllowedAddress(address, mode)) {
      const where = ipaddr.isValid(host) ? 'url host is' : 'url resolves to';
      throw new UnsafeWebhookUrl(`${where} ${describeAddress(address)} (${address})`);
    }
  }
  // The local stack's own services answer on this machine's ports: a webhook there would drive them
  // (empty the sent mail, probe the store). Checked again at each delivery: ports move between runs.
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (refusedPorts().has(port) && addresses.some(isThisMachine))
    throw new UnsafeWebhookUrl(`url is one of the local stack's own services (port ${port} of this machine)`);
  return { url, addresses };
}
