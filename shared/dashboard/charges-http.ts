/**
 * The dashboard's charges pages: what each reads and does, through the functions the API's handlers
 * call (the payments list, getCharge, listRefunds, refundCharge), in the session's account and mode.
 * A failure of the domain (a refund above what is left, a charge paid out, …) is shown on the page
 * with the status the API answers it with.
 */
import { getCharge, listCharges } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { listPaymentCharges, parsePaymentListQuery } from '../payments/list-query.ts';
import { getPayment } from '../payments/repository.ts';
import { CreateRefundSchema, type Refund } from '../refunds/refund.ts';
import { listRefunds } from '../refunds/repository.ts';
import { type RefundDeps, refundCharge } from '../refunds/service.ts';
import { overview } from '../stats/repository.ts';
import type { Problem } from '../web/problems.ts';
import { typedAmount } from './amount-input.ts';
import { chargePage, chargesPage, overviewPage, type RefundFormState } from './charge-views.ts';
import { findOf } from './charges-query.ts';
import { formKeyPattern, newFormKey } from './form-once.ts';
import {
  type DashboardDeps,
  dashboardRoot,
  field,
  orProblem,
  pageAnswer,
  recordPath,
  type SignedIn,
  seeOther,
  signedInForm,
  signedInPage,
} from './http.ts';
import { messagePage, type ShellContext } from './shell.ts';
import { dashboardWords } from './words.ts';

/** The path under /dashboard/ of the charge a request names (the language switch comes back to it). */
const chargePath = recordPath('charges');

/** The charges the overview shows. */
const newestShown = 10;
/** As GET /v1/refunds/ bounds one answer. */
const maxRefunds = 1000;

/**
 * GET /dashboard/: the last 30 days' figures (the counters: one Query and one Get, however many
 * charges the account has) and the newest charges, read at once.
 */
export const showOverview = signedInPage(
  'overview',
  '',
  async (deps: Deps, { scope, view }: SignedIn): Promise<ApiAnswer> => {
    const [newest, figures] = await Promise.all([
      listCharges(deps, scope, { limit: newestShown }),
      overview(deps, scope, deps.clock()),
    ]);
    return pageAnswer(overviewPage(view, newest, figures));
  },
);

/**
 * The charges page's search: a charge id opens that charge; a payment id opens the charge that paid
 * it. Both are read at once (two GetItems, one round trip), and only for text shaped like such an id
 * (anything else is no record's id: no read). Otherwise what the page says, with a 404.
 */
async function findCharge(
  deps: Deps,
  { scope, view }: SignedIn,
  find: string,
): Promise<{ chargeId: string } | { problem: Problem }> {
  const w = dashboardWords[view.lang];
  const [charge, payment] = await Promise.all([getCharge(deps, scope, find), getPayment(deps, scope, find)]);
  const chargeId = charge?.id ?? payment?.charge_id;
  if (chargeId) return { chargeId };
  // A payment keeps no decline reason (a declined attempt leaves it pending): its status says why.
  const message = payment
    ? w.paymentNotPaid(payment.id, w.paymentStatuses[payment.status] ?? payment.status)
    : w.nothingFound(find);
  return { problem: { status: 404, message } };
}

/**
 * GET /dashboard/charges: the payments list's query (limit, created_before, status), as the API reads
 * it; `find` (a charge or payment id) goes to that charge instead.
 */
export const showCharges = signedInPage(
  'charges',
  'charges',
  async (deps: DashboardDeps, signedIn: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signedIn;
    let find = '';
    return orProblem(
      view.lang,
      async () => {
        find = findOf(request.query);
        const found = find ? await findCharge(deps, signedIn, find) : undefined;
        if (found && 'chargeId' in found) {
          return seeOther(`${dashboardRoot(deps.baseUrl)}/charges/${encodeURIComponent(found.chargeId)}`);
        }
        const query = parsePaymentListQuery(request.query);
        const charges = await listPaymentCharges(deps, scope, query);
        return pageAnswer(chargesPage(view, charges, query, found?.problem, find));
      },
      (problem) => pageAnswer(chargesPage(view, [], undefined, problem, find)),
    );
  },
);

/** The charge's page (its refunds read beside it), or the 404 page when the account and mode have no such charge. */
async function chargeAnswer(
  deps: Deps,
  scope: Scope,
  view: ShellContext,
  id: string,
  form: Omit<RefundFormState, 'made'> & { madeId?: string },
): Promise<ApiAnswer> {
  const [charge, refunds] = await Promise.all([
    getCharge(deps, scope, id),
    listRefunds(deps, scope, { chargeId: id, limit: maxRefunds }),
  ]);
  if (!charge) {
    const w = dashboardWords[view.lang];
    return pageAnswer(messagePage(view, 404, w.notFoundTitle, w.notFound));
  }
  const made: Refund | undefined = form.madeId
    ? refunds.find((refund) => refund.id === form.madeId)
    : undefined;
  return pageAnswer(chargePage(view, charge, refunds, { ...form, ...(made ? { made } : {}) }));
}

/** GET /dashboard/charges/{id}; `?refunded=<refund id>` after a refund says it was made. */
export const showCharge = signedInPage(
  'charges',
  chargePath,
  (deps: Deps, { scope, view, request }: SignedIn): Promise<ApiAnswer> =>
    chargeAnswer(deps, scope, view, request.params.id ?? '', {
      idempotencyKey: newFormKey(),
      ...(request.query.refunded ? { madeId: request.query.refunded } : {}),
    }),
);

/**
 * POST /dashboard/charges/{id}/refunds: refundCharge, as POST /v1/refunds/ calls it, with the form's
 * idempotency key (so a form submitted twice refunds once); 303 back to the charge's page, or the
 * page again saying what the domain refused, with the API's status. A charge the account and mode
 * do not have is 404, and nothing is asked of the acquirer.
 */
export const submitRefund = signedInForm(
  'charges',
  chargePath,
  async (deps: RefundDeps & DashboardDeps, signed: SignedIn): Promise<ApiAnswer> => {
    const { scope, view, request } = signed;
    const id = request.params.id ?? '';
    const key = field(request.body, 'idempotency_key');
    const amount = field(request.body, 'amount').trim();
    const reason = field(request.body, 'reason');
    if (!(await getCharge(deps, scope, id))) {
      const w = dashboardWords[view.lang];
      return pageAnswer(messagePage(view, 404, w.notFoundTitle, w.notFound));
    }
    const again = (problem: Problem) =>
      chargeAnswer(deps, scope, view, id, {
        // The same key again: submitting the corrected form resumes the same attempt, never a second.
        idempotencyKey: formKeyPattern.test(key) ? key : newFormKey(),
        amount,
        reason,
        problem,
      });
    if (!formKeyPattern.test(key)) {
      return again({ status: 400, message: dashboardWords[view.lang].formExpired });
    }
    return orProblem(
      view.lang,
      async () => {
        const input = validate(CreateRefundSchema, {
          charge_id: id,
          reason,
          ...(amount ? { amount: typedAmount(amount, view.lang) } : {}),
        });
        const refund = await refundCharge(deps, scope, input, `dashboard:${key}`);
        // The same form sent again answers the same refund (its entry is written once, by the form's key).
        signed.auditRecord = refund.id;
        const back = `${dashboardRoot(deps.baseUrl)}/charges/${encodeURIComponent(id)}`;
        return seeOther(`${back}?${new URLSearchParams({ refunded: refund.id })}`);
      },
      again,
    );
  },
);
