/**
 * One way to make a page (docs/design.md#pages, issue 35): HTML comes from `html` templates
 * (shared/web/html.ts), which escape every value, and markup that is HTML already goes in only
 * through `trusted`, at the call sites listed here with why each is safe. Read with swc (the parser
 * dependency-cruiser uses), every source is held to that: no other way into hono's markup, no
 * `escapeHtml` outside the files not yet converted, and no markup built as a plain string with a
 * value in it (a template literal without the `html` tag, a `+`, a list of strings to join).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/**
 * Every call of `trusted` there may be, by file, and why each is safe. A new one fails until it is
 * named here; one that goes away fails until its count is lowered.
 */
const trustedCalls: Record<string, { calls: number; why: string }> = {
  'shared/web/page.ts': {
    calls: 1,
    why: "the page's style sheet: CSS written in the code (never a value from a request), and hostedPage refuses one holding `</style`",
  },
};

/** The one module that may import hono's markup (its `html`, `raw` and JSX). */
const honoMarkup = /^hono\/(html|utils\/html|jsx)/;
const templates = 'shared/web/html.ts';

const folders = ['shared', 'functions', 'infra', 'bin'];

/** Every TypeScript source (tests and the generated client left out), root-relative. */
const sources = folders.flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.ts$/.test(path) && !/\.test(-d)?\.ts$/.test(path))
    .filter((path) => !path.split('/').includes('node_modules') && !path.includes('src/generated/'))
    .map((path) => relative(root, join(root, folder, path))),
);

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Calls `visit` on every node of `node`'s tree with its parent. */
function walk(node: Node, visit: (node: Node, parent: Node | undefined) => void, parent?: Node) {
  visit(node, parent);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) walk(child, visit, node);
      // swc wraps call arguments and array elements as { spread, expression }.
      else if (typeof child === 'object' && child !== null && isNode((child as Node).expression))
        walk((child as { expression: Node }).expression, visit, node);
    }
  }
}

/** A tag, a closing tag, a comment or a doctype, in a template's static text. */
const markup = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>|<!--|<!doctype/i;

/** A template literal's static text, each value written as `·`. */
const staticText = (template: Node) =>
  (template.quasis as { cooked: string | null; raw: string }[]).map((q) => q.cooked ?? q.raw).join('·');

const isMarkupString = (node: Node | undefined): boolean =>
  node !== undefined &&
  ((node.type === 'StringLiteral' && markup.test(node.value as string)) ||
    (node.type === 'TemplateLiteral' && markup.test(staticText(node))));

const shown = (node: Node) =>
  (node.type === 'TemplateLiteral' ? `\`${staticText(node)}\`` : JSON.stringify(node.value)).slice(0, 100);

interface Reading {
  imports: string[];
  trustedCalls: number;
  /** Uses of `trusted` other than a call by that name (passed around, renamed). */
  trustedOtherwise: string[];
  /** Markup made as a plain string with values in it. */
  stringMarkup: string[];
  /** Attribute values of html templates written without quotes (`a=${value}`): escaping needs quotes. */
  unquoted: string[];
}

/** What a source file does with markup, read from its syntax tree. */
function read(path: string): Reading {
  const module = parseSync(readFileSync(join(root, path), 'utf8'), {
    syntax: 'typescript',
  }) as unknown as Node;
  const reading: Reading = {
    imports: [],
    trustedCalls: 0,
    trustedOtherwise: [],
    stringMarkup: [],
    unquoted: [],
  };
  walk(module, (node, parent) => {
    if (
      (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration') &&
      isNode(node.source)
    ) {
      const from = node.source.value as string;
      reading.imports.push(from.startsWith('.') ? relative(root, resolve(root, dirname(path), from)) : from);
    }
    if (node.type === 'Identifier' && node.value === 'trusted') {
      if (parent?.type === 'CallExpression' && parent.callee === node) reading.trustedCalls += 1;
      else if (parent?.type === 'ImportSpecifier' && parent.imported === null) return;
      else if (path === templates && parent?.type === 'VariableDeclarator') return;
      else reading.trustedOtherwise.push(parent?.type ?? 'module');
    }
    // A template literal type (`${string}#${string}`) is a TemplateLiteral too, with `types` where a
    // value's template has `expressions`: it makes no string, so no markup.
    if (node.type === 'TemplateLiteral' && Array.isArray(node.expressions) && node.expressions.length > 0) {
      const tagged = parent?.type === 'TaggedTemplateExpression';
      if (!tagged && isMarkupString(node)) reading.stringMarkup.push(`template ${shown(node)}`);
    }
    if (node.type === 'TaggedTemplateExpression' && isNode(node.tag) && node.tag.value === 'html') {
      const template = node.template as Node;
      const quasis = template.quasis as { cooked: string | null; raw: string }[];
      if (quasis.slice(0, -1).some((q) => /=\s*$/.test(q.cooked ?? q.raw)))
        reading.unquoted.push(shown(template));
    }
    if (node.type === 'BinaryExpression' && node.operator === '+') {
      for (const side of [node.left, node.right] as Node[])
        if (isMarkupString(side)) reading.stringMarkup.push(`+ ${shown(side)}`);
    }
    if (node.type === 'ArrayExpression') {
      for (const element of node.elements as ({ expression: Node } | null)[]) {
        const value = element?.expression;
        if (value && isMarkupString(value)) reading.stringMarkup.push(`list ${shown(value)}`);
      }
    }
  });
  return reading;
}

const readings = new Map(sources.map((path) => [path, read(path)]));

describe('markup inserted as it is', () => {
  it('goes in through trusted only at the call sites named, as many as named', () => {
    const calls = Object.fromEntries(
      [...readings].filter(([, r]) => r.trustedCalls > 0).map(([path, r]) => [path, r.trustedCalls]),
    );
    expect(calls).toEqual(
      Object.fromEntries(Object.entries(trustedCalls).map(([path, t]) => [path, t.calls])),
    );
    for (const { why } of Object.values(trustedCalls)) expect(why.length).toBeGreaterThan(20);
  });

  it('is never reached by trusted passed around or renamed', () => {
    const otherwise = [...readings].flatMap(([path, r]) =>
      r.trustedOtherwise.map((use) => `${path}: ${use}`),
    );
    expect(otherwise).toEqual([]);
  });

  it("comes from hono's markup (html, raw, JSX) only through shared/web/html.ts", () => {
    const direct = [...readings]
      .filter(([path, r]) => path !== templates && r.imports.some((from) => honoMarkup.test(from)))
      .map(([path]) => path);
    expect(direct).toEqual([]);
    expect(readings.get(templates)?.imports).toContain('hono/html');
  });
});

describe('values escaped by hand', () => {
  it('are nowhere: no source writes an entity of its own (every page, e-mail and chart is escaped by its template)', () => {
    const byHand = [...readings]
      .filter(([path]) => path !== templates)
      .filter(([path]) =>
        /['"`]&(amp|lt|gt|quot|#39|#x27);['"`]/.test(readFileSync(join(root, path), 'utf8')),
      )
      .map(([path]) => path);
    expect(byHand).toEqual([]);
  });
});

describe('markup built as a string', () => {
  it('is nowhere in a converted file: every page and chart is made of html templates', () => {
    const built = [...readings]
      .filter(([path]) => path.startsWith('shared/'))
      .flatMap(([path, r]) => r.stringMarkup.map((what) => `${path}: ${what}`));
    expect(built).toEqual([]);
  });

  it('quotes every attribute value a template writes', () => {
    const unquoted = [...readings].flatMap(([path, r]) => r.unquoted.map((what) => `${path}: ${what}`));
    expect(unquoted).toEqual([]);
  });

  it('is found where it is, the ways trusted must not be used too (fixtures/string-markup.ts)', () => {
    const fixture = read('test/architecture/fixtures/string-markup.ts');
    expect(fixture.stringMarkup).toEqual([
      'template `<p class="name">·</p>`',
      '+ "<p>"',
      'list "<p>"',
      'list "</p>"',
    ]);
    expect(fixture.trustedOtherwise).toEqual(['ImportSpecifier', 'CallExpression']);
    expect(fixture.trustedCalls).toBe(0);
    expect(fixture.unquoted).toEqual(['`<input value=·>`']);
    expect(sources.length).toBeGreaterThan(250);
  });
});
