import { describe, expect, it } from 'vitest';
import { type Html, html, joinHtml, render, trusted } from './html.ts';

const hostile = `<script>alert("x")</script>&'`;

describe('an html template', () => {
  it('escapes every text value, in text and in attributes: each of & < > " and \' as its entity', () => {
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;';
    expect(render(html`<p title="${hostile}">${hostile}</p>`)).toBe(`<p title="${escaped}">${escaped}</p>`);
    expect(render(html`<p>${hostile}</p>`)).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('keeps markup made by a template as it is: nested templates are escaped once', () => {
    const inner = html`<b>${hostile}</b>`;
    const outer = html`<p>${inner}</p>`;
    expect(render(outer)).toBe('<p><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</b></p>');
    expect(render(html`<div>${outer}</div>`)).toBe(`<div>${render(outer)}</div>`);
  });

  it('writes lists one after the other, numbers as they are, and nothing for null, undefined and false', () => {
    const items = ['a<', 'b&'].map((item) => html`<li>${item}</li>`);
    expect(render(html`<ul>${items}</ul>`)).toBe('<ul><li>a&lt;</li><li>b&amp;</li></ul>');
    expect(render(html`<p>${12.5}|${0}|${null}|${undefined}|${false}</p>`)).toBe('<p>12.5|0|||</p>');
    expect(render(html`<p>${[['<', [html`<i></i>`]], '>']}</p>`)).toBe('<p>&lt;<i></i>&gt;</p>');
    const shown = (on: boolean) => render(html`<p>${on && html`<b>on</b>`}</p>`);
    expect([shown(true), shown(false)]).toEqual(['<p><b>on</b></p>', '<p></p>']);
  });

  it('renders to a string at once', () => {
    const text = render(html`<p>${'x'}</p>`);
    expect(typeof text).toBe('string');
    expect(text).toBe('<p>x</p>');
  });

  it('takes no promise, in its types or when one is cast in', () => {
    // @ts-expect-error a promise is no value of a page: a page renders at once.
    expect(() => html`<p>${Promise.resolve('x')}</p>`).toThrow(TypeError);
    // @ts-expect-error an object is no value of a page either (it would be written as its toString).
    html`<p>${{ toString: () => '<b>' }}</p>`;
  });

  it('is no string, and no string is markup: text becomes markup only through html or trusted', () => {
    // @ts-expect-error markup is written out with render(), not used as a string.
    const text: string = html`<p></p>`;
    // @ts-expect-error a string is text, escaped, never markup.
    const markup: Html = '<p></p>';
    expect([typeof text, markup]).toEqual(['object', '<p></p>']);
  });
});

describe('trusted markup', () => {
  it('is inserted as it is', () => {
    expect(render(html`<style>${trusted('a>b{color:red}')}</style>`)).toBe('<style>a>b{color:red}</style>');
  });
});

describe('joinHtml', () => {
  it('puts the separator, escaped, between each two parts', () => {
    const parts = ['1', '2', '3'].map((n) => html`<i>${n}</i>`);
    expect(render(joinHtml(parts, '\n'))).toBe('<i>1</i>\n<i>2</i>\n<i>3</i>');
    expect(render(joinHtml(parts.slice(0, 1), '<'))).toBe('<i>1</i>');
    expect(render(joinHtml([], ', '))).toBe('');
    expect(render(joinHtml(parts.slice(0, 2), '<'))).toBe('<i>1</i>&lt;<i>2</i>');
  });
});
