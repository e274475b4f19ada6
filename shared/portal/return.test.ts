import { describe, expect, it } from 'vitest';
import { sealer } from '../core/seal.ts';
import { openPortalToken, sealPortalToken } from './return.ts';

const token = 'T'.repeat(21) + 'x'.repeat(22);

describe("a card page's way back to the portal", () => {
  it('keeps the portal token sealed, never in clear, and opens it with the key it was sealed under', () => {
    const sealed = sealPortalToken('current', token);
    expect(sealed).not.toContain(token);
    expect(sealed).not.toContain(Buffer.from(token).toString('base64'));
    expect(openPortalToken(['current'], sealed)).toBe(token);
    // After the secret is replaced, its previous value still opens it.
    expect(openPortalToken(['next', 'current'], sealed)).toBe(token);
  });

  it('opens nothing under another key, nor what a seal for another purpose made', () => {
    const sealed = sealPortalToken('current', token);
    expect(openPortalToken(['other'], sealed)).toBeUndefined();
    const otherPurpose = sealer('current', 'idempotent answers').seal(token);
    expect(openPortalToken(['current'], otherPurpose)).toBeUndefined();
  });
});
