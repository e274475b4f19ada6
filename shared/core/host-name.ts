/**
 * Whether a host, as the WHATWG URL parser leaves it (`new URL(...).hostname`: lower case,
 * internationalized names in punycode, IPv4 normalized, IPv6 in brackets), is a DNS name or an IP
 * literal. The parser lets through characters no DNS name has (`;`, `'`, `*`, `=` …); a host that
 * reaches a header such as a Content-Security-Policy must not.
 */
const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const dnsName = new RegExp(`^${label}(?:\\.${label})*\\.?$`);
const ipv4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const ipv6 = /^\[[0-9a-f:.]+\]$/;

export function isHostName(hostname: string): boolean {
  if (ipv4.test(hostname) || ipv6.test(hostname)) return true;
  return hostname.length <= 254 && dnsName.test(hostname);
}
