/**
 * firstRefused reads a PutEvents answer as the relay needs it: the first entry not taken, so that
 * entry and every one after it are sent again. An answer that reports failures without saying
 * which is read as the first entry refused, never as all accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstRefused } from './publish.ts';

const accepted = (n: number) => ({ EventId: `id-${n}` });
const refused = { ErrorCode: 'InternalFailure', ErrorMessage: 'refused' };

describe('firstRefused', () => {
  it('answers -1 when the bus took every entry', () => {
    expect(firstRefused({ FailedEntryCount: 0, Entries: [accepted(0), accepted(1), accepted(2)] })).toBe(-1);
    expect(firstRefused({ FailedEntryCount: 0 })).toBe(-1);
    expect(firstRefused({})).toBe(-1);
  });

  it('answers the first entry that carries an ErrorCode', () => {
    expect(
      firstRefused({ FailedEntryCount: 1, Entries: [accepted(0), accepted(1), refused, accepted(3)] }),
    ).toBe(2);
    expect(firstRefused({ FailedEntryCount: 2, Entries: [accepted(0), refused, accepted(2), refused] })).toBe(
      1,
    );
    expect(firstRefused({ FailedEntryCount: 1, Entries: [refused, accepted(1)] })).toBe(0);
  });

  it('answers the first marked entry even when FailedEntryCount is 0 or left out', () => {
    expect(firstRefused({ FailedEntryCount: 0, Entries: [accepted(0), refused] })).toBe(1);
    expect(firstRefused({ Entries: [accepted(0), accepted(1), refused] })).toBe(2);
  });

  it('answers 0 when FailedEntryCount says some failed but no entry says which', () => {
    expect(firstRefused({ FailedEntryCount: 1 })).toBe(0);
    expect(firstRefused({ FailedEntryCount: 2, Entries: [] })).toBe(0);
    expect(firstRefused({ FailedEntryCount: 1, Entries: [accepted(0), accepted(1)] })).toBe(0);
    expect(firstRefused({ FailedEntryCount: 1, Entries: [{}, {}] })).toBe(0);
  });

  it('never answers past a refused entry, and answers -1 only when nothing reports a failure', () => {
    const entry = fc.oneof(
      fc.nat().map(accepted),
      fc.constant(refused),
      fc.constant({}),
      fc.constant({ ErrorCode: 'ThrottlingException' }),
    );
    fc.assert(
      fc.property(
        fc.option(fc.nat({ max: 10 }), { nil: undefined }),
        fc.option(fc.array(entry, { maxLength: 10 }), { nil: undefined }),
        (failedEntryCount, entries) => {
          const answer = firstRefused({ FailedEntryCount: failedEntryCount, Entries: entries });
          const marked = (entries ?? []).map((one) => 'ErrorCode' in one);
          // Everything before the answer was taken: a resend from there loses nothing.
          const before = answer === -1 ? marked : marked.slice(0, answer);
          expect(before).not.toContain(true);
          if ((failedEntryCount ?? 0) > 0) expect(answer).toBeGreaterThanOrEqual(0);
          else expect(answer).toBe(marked.indexOf(true));
        },
      ),
    );
  });
});
