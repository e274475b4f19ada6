import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html.ts';

describe('escapeHtml', () => {
  it('leaves no markup character and loses nothing', () => {
    const decode = (html: string) =>
      html
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const escaped = escapeHtml(value);
        return !/[<>"']/.test(escaped) && decode(escaped) === value;
      }),
    );
  });

  it('escapes every markup character, the ampersand first', () => {
    expect(escapeHtml(`<a href="x" title='&amp;'>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;&amp;amp;&#39;&gt;',
    );
  });
});
