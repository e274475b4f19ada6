/**
 * The dashboard's API keys pages as views: both keys masked as the API shows them, the
 * confirmation before a rotation, and the new key, shown this once. Pure functions of what the
 * domain read (shared/dashboard/keys-http.ts), tested without a stack.
 */
import type { ApiKeysView } from '../auth/schemas.ts';
import type { Mode } from '../core/account.ts';
import { can } from '../team/roles.ts';
import { html } from '../web/html.ts';
import type { Page } from '../web/page.ts';
import type { Problem } from '../web/problems.ts';
import { dashboardPage, link, notice, refusal, type ShellContext } from './shell.ts';
import { dataTable } from './table.ts';
import { code, confirmPage } from './webhooks-views.ts';
import { webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';

/** GET /dashboard/api-keys: both keys, masked as the API shows them, and which may be rotated. */
export function keysPage(view: ShellContext, keys: ApiKeysView, problem?: Problem): Page {
  const w = webhookWords[view.lang];
  const c = w.columns;
  const date = dashboardWords[view.lang].date;
  // As the API decides: a test key may rotate only the test key; and only a role that may rotate
  // (an admin) is offered it: a developer sees the keys masked, without the action column or the
  // note on which key may be rotated.
  const rotates = can(view.role, 'rotate_keys');
  const mayRotate = (mode: Mode) => rotates && !(view.mode === 'test' && mode === 'live');
  const table = dataTable(
    [
      { heading: c.mode },
      { heading: c.key },
      { heading: c.created, nowrap: true },
      ...(rotates ? [{ heading: c.action }] : []),
    ],
    (['test', 'live'] as const).map((mode) => [
      w.keyModes[mode],
      code(keys[mode].key),
      date(keys[mode].created_at),
      ...(rotates
        ? [
            html`${
              mayRotate(mode) &&
              html`<a href="${`${view.root}/api-keys/rotate?${new URLSearchParams({ type: mode })}`}" aria-label="${`${w.rotateKey}: ${w.keyModes[mode]}`}">${w.rotateKey}</a>`
            }`,
          ]
        : []),
    ]),
  );
  return dashboardPage(
    view,
    w.keysTitle,
    html`${refusal(problem)}<p>${w.keysIntro}</p>
<div class="card">${table}</div>
${rotates && view.mode === 'test' && html`<p class="help">${w.rotateKeyTestOnly}</p>`}`,
    problem?.status ?? 200,
  );
}

/** The confirmation step of a key's rotation; says so when it is the key the session was opened with. */
export function keyConfirmPage(view: ShellContext, type: Mode): Page {
  const w = webhookWords[view.lang];
  const name = w.keyModes[type];
  const own = type === view.mode ? ` ${w.keyConfirmOwn}` : '';
  return confirmPage(
    view,
    w.keyConfirmTitle(name),
    `${w.keyConfirm(name)}${own}`,
    `${view.root}/api-keys/rotate`,
    w.keyConfirmButton,
    `${view.root}/api-keys`,
    { type },
  );
}

/** The new key, shown this once; the session goes on (sessions belong to users, not keys). */
export function keyRotatedPage(view: ShellContext, rotated: { type: Mode; key: string }): Page {
  const w = webhookWords[view.lang];
  const name = w.keyModes[rotated.type];
  return dashboardPage(
    view,
    w.keyRotatedTitle,
    html`<section class="card">
<dl><dt>${w.newKey(name)}</dt><dd><code class="secret" data-secret>${rotated.key}</code></dd></dl>
${notice(w.keyOnce)}
<p>${link(`${view.root}/api-keys`, w.toKeys)}</p>
</section>`,
  );
}
