/**
 * The sent-mail page at a fixed place of the API's origin: `/_mail` redirects to the SES emulator's
 * inbox wherever it listens (it moves to a free port when its own is taken), `/_mail/store` to its
 * JSON, the query kept.
 */
import { describe, expect, it } from 'vitest';
import { localInfo } from '../support/stack.ts';

describe('the sent-mail page', () => {
  it('is at /_mail of the API, wherever the SES emulator listens', async () => {
    const inbox = localInfo.mail_inbox_url.replace(/\/$/, '');
    const page = await fetch(`${localInfo.api_url}/_mail`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`${inbox}/`);
    expect(await (await fetch(`${localInfo.api_url}/_mail`)).text()).toMatch(/<html/i);

    const store = await fetch(`${localInfo.api_url}/_mail/store?since=0`, { redirect: 'manual' });
    expect(store.headers.get('location')).toBe(`${inbox}/store?since=0`);
    const emails = (await (await fetch(`${localInfo.api_url}/_mail/store`)).json()) as { emails: unknown[] };
    expect(Array.isArray(emails.emails)).toBe(true);
  });

  it('is no API route: only GET redirects, and a longer name is not it', async () => {
    const posted = await fetch(`${localInfo.api_url}/_mail`, { method: 'POST', redirect: 'manual' });
    expect(posted.status).not.toBe(302);
    const other = await fetch(`${localInfo.api_url}/_mailbox`, { redirect: 'manual' });
    expect(other.status).toBe(404);
  });
});
