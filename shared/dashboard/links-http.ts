/**
 * The dashboard's payment links pages: the links with GET /v1/payment-links/'s paging, the create
 * form through createLinks (as POST /v1/payment-links/ calls it, one link, no named customers),
 * and the delete's two steps through deleteLink, in the session's account and mode.
 */
import { validate } from '../core/validation.ts';
import type { ApiAnswer } from '../http/render.ts';
import { LinkListQuerySchema } from '../payment-links/schemas.ts';
import { createLinks, deleteLink, linkIdParam, linkList, linkOf } from '../payment-links/service.ts';
import {
  catalogPath,
  confirmation,
  deletedNotice,
  freshForm,
  listed,
  named,
  submitAction,
  submitCreate,
} from './catalog-http.ts';
import type { CreateForm } from './catalog-views.ts';
import { catalogWords } from './catalog-words.ts';
import { type DashboardDeps, pageAnswer, type SignedIn, signedInForm, signedInPage } from './http.ts';
import { linkDeletePage, linksPage, type MadeLink } from './links-views.ts';

const linkFields = ['description', 'amount', 'currency'] as const;
const linkRequired = ['description', 'amount'] as const;

async function linksAnswer(deps: DashboardDeps, signed: SignedIn, form: CreateForm): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const query = request.query;
  const [{ list, problem }, made] = await Promise.all([
    listed(view.lang, async () => {
      const { page } = validate(LinkListQuerySchema, query);
      const { count, results } = await linkList(deps, scope, page);
      return { records: results, count, page };
    }),
    named<MadeLink>(view.lang, form.problem ? undefined : query.created, (id) =>
      linkOf(deps, scope, linkIdParam(id)),
    ),
  ]);
  const w = catalogWords[view.lang];
  const notice = made ? w.created(made.description) : deletedNotice(query, w.deletedLink);
  return pageAnswer(linksPage(view, query, list, form, made, notice, problem));
}

/** GET /dashboard/links: the payment links (GET /v1/payment-links/'s paging) and the create form. */
export const showLinks = signedInPage('links', 'links', (deps: DashboardDeps, signed: SignedIn) =>
  linksAnswer(deps, signed, freshForm()),
);

/** POST /dashboard/links: createLinks, as POST /v1/payment-links/ calls it (one link), once per form. */
export const submitLink = signedInForm('links', 'links', (deps: DashboardDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    linkFields,
    linkRequired,
    'amount',
    'links',
    async (body) => {
      const made = await createLinks(deps, signed.scope, body);
      if (Array.isArray(made)) throw new Error('a link without customers is one link');
      return made.id;
    },
    (form) => linksAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  ),
);

/** GET /dashboard/links/{id}/delete: what deleting the link does. */
export const showLinkDelete = signedInPage(
  'links',
  catalogPath('links'),
  (deps: DashboardDeps, { scope, view, request }: SignedIn) =>
    confirmation(
      view,
      'links',
      async () => {
        const link = await linkOf(deps, scope, linkIdParam(request.params.id));
        return { ...link, amount: String(link.amount) };
      },
      (link) => linkDeletePage(view, link),
    ),
);

/** POST /dashboard/links/{id}/delete: deleteLink, as DELETE /v1/payment-links/{id}/ calls it. */
export const submitLinkDelete = signedInForm(
  'links',
  catalogPath('links'),
  (deps: DashboardDeps, signed: SignedIn) =>
    submitAction(
      signed.view,
      'links',
      () => deleteLink(deps, signed.scope, linkIdParam(signed.request.params.id)),
      (problem) => linksAnswer(deps, signed, { ...freshForm(), problem }),
    ),
);
