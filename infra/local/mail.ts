/**
 * Sent e-mail that survives a restart. The SES emulator keeps mail in a module-level store; a
 * persistent stack appends each mail to `.cobro/ses/sent.jsonl` as the emulator saves it and loads the
 * file back into the store on start, so the inbox page and `GET /store` list it again.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

interface EmulatorStore {
  saveEmail(email: unknown): void;
  clearStore(): void;
  getStoreReadonly(): { emails: unknown[] };
}

// The emulator's handlers call these through the module's exports object, so replacing them here
// reaches every send (v1, v2, bulk, raw) and the inbox page's "clear".
const store = createRequire(import.meta.url)('aws-ses-v2-local/dist/store.js') as EmulatorStore;
const original = { saveEmail: store.saveEmail, clearStore: store.clearStore };

/** Keeps sent mail in `file` (one JSON mail a line) from now on, after loading what it holds. */
export function persistSentMail(file: string): { stop(): void } {
  mkdirSync(dirname(file), { recursive: true });
  const emails = store.getStoreReadonly().emails;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // first start: nothing sent yet
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      emails.push(JSON.parse(line));
    } catch {
      // a line cut short by a crash mid-write: skip it
    }
  }
  store.saveEmail = (email) => {
    appendFileSync(file, `${JSON.stringify(email)}\n`, { mode: 0o600 });
    original.saveEmail(email);
  };
  store.clearStore = () => {
    writeFileSync(file, '', { mode: 0o600 });
    original.clearStore();
  };
  return {
    stop() {
      store.saveEmail = original.saveEmail;
      store.clearStore = original.clearStore;
      original.clearStore(); // this process may start another stack: it must not see these
    },
  };
}
