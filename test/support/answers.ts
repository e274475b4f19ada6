/**
 * Assertions on the API's documented answers: the message envelope ({code, title, content, type})
 * in its forms, the fields a 400 names, and an Idempotency-Key replay.
 */
import { expect } from 'vitest';

/** What an assertion here reads of an answer (the stack's `api` and the hostile requests give it). */
export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the answered JSON
  json: Record<string, any>;
}

const envelope = (status: number, fields: Record<string, unknown>) => ({
  code: status,
  title: expect.any(String),
  content: expect.any(String),
  type: expect.any(String),
  ...fields,
});

/** Asserts a message envelope of `status` (extra keys such as `data` allowed); `fields` pin values. */
export function expectMessage(answer: Answer, status: number, fields: Record<string, unknown> = {}): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json).toMatchObject(envelope(status, fields));
}

/** Asserts exactly a message envelope of `status`, no other key; `fields` pin values. */
export function expectEnvelope(answer: Answer, status: number, fields: Record<string, unknown> = {}): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.json).toEqual(envelope(status, fields));
}

/** Asserts a 400 message envelope; `content`, when given, is its content to the letter. */
export function expect400(answer: Answer, content?: string): void {
  expectMessage(answer, 400, content === undefined ? {} : { content });
}

/** Asserts `first` was answered `status` afresh and `replay` repeats it to the letter, marked replayed. */
export function expectReplayed(
  first: Answer & { headers: Headers },
  replay: Answer & { headers: Headers },
  status: number,
): void {
  expect(first.status, first.text).toBe(status);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(replay.status, replay.text).toBe(status);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.json).toEqual(first.json);
}

/** The fields a 400 envelope's `data.errors` names, in order. */
export const errorFields = (answer: Answer): string[] =>
  (answer.json.data.errors as { field: string }[]).map((error) => error.field);
