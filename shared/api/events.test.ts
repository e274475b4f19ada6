import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSource } from '../events/event.ts';
import { eventRules } from './event-rules.ts';
import { eventCatalogue } from './events.ts';

const shared = resolve(import.meta.dirname, '..');

/** Every event type a `defineEvent('…')` in the areas declares. */
function declaredTypes(): string[] {
  return readdirSync(shared, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('events.ts') && !file.startsWith('api'))
    .flatMap((file) => [...readFileSync(join(shared, file), 'utf8').matchAll(/defineEvent\(\s*'([^']+)'/g)])
    .map((match) => match[1] as string);
}

describe('the event catalogue', () => {
  it('lists every event the areas declare, once each', () => {
    const types = eventCatalogue.map((event) => event.type);
    expect(new Set(types).size).toBe(types.length);
    expect([...types].sort()).toEqual(declaredTypes().sort());
    expect(types).toContain('payment.succeeded');
  });

  it('has every type a rule on cobro events listens for', () => {
    const types = new Set(eventCatalogue.map((event) => event.type));
    const onCobroEvents = eventRules.filter((rule) => (rule.source ?? eventSource) === eventSource);
    expect(onCobroEvents.length).toBeGreaterThan(0);
    for (const rule of onCobroEvents)
      for (const type of rule.detailTypes) expect(types.has(type), type).toBe(true);
  });

  it('hands webhooks every type of the catalogue', () => {
    const fanOut = eventRules.find((rule) => rule.name === 'webhooks-fan-out');
    expect(new Set(fanOut?.detailTypes)).toEqual(new Set(eventCatalogue.map((event) => event.type)));
  });

  it("checks a received event's data against its schema", () => {
    const [rotated] = eventCatalogue;
    const good = rotated?.of(
      { developerId: 1, mode: 'test' },
      { type: 'test', key: 'sk_test_…abcd', created_at: '2026-11-23T00:00:00.000Z' },
      new Date('2026-11-23T00:00:00.000Z'),
    );
    expect(rotated?.read(JSON.parse(JSON.stringify(good)))).toEqual(good);
    expect(() => rotated?.read({ ...good, data: { type: 'nope' } })).toThrow();
    expect(() => rotated?.read({ ...good, type: 'plan.deleted' })).toThrow();
  });
});
