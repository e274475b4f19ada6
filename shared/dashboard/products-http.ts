/**
 * The dashboard's products pages: the active products with GET /v1/products/'s query, the create
 * form through createProductFromForm (as POST /v1/products/ calls it, text fields only), and the
 * delete's two steps through deactivateProduct, in the session's account and mode.
 */
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import type { ApiAnswer } from '../http/render.ts';
import { deactivateProduct, getProduct, listProducts } from '../products/repository.ts';
import { ProductListQuerySchema } from '../products/schemas.ts';
import { createProductFromForm, productIdParam } from '../products/service.ts';
import {
  type CatalogDeps,
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
import { pageAnswer, type SignedIn, signedInForm, signedInPage } from './http.ts';
import { productDeletePage, productsPage } from './products-views.ts';

const productFields = [
  'name',
  'price',
  'currency',
  'short_description',
  'description',
  'sku',
  'stock',
] as const;
const productRequired = ['name', 'price'] as const;

async function productsAnswer(deps: Deps, signed: SignedIn, form: CreateForm): Promise<ApiAnswer> {
  const { scope, view, request } = signed;
  const query = request.query;
  const [{ list, problem }, made] = await Promise.all([
    listed(view.lang, async () => {
      const listQuery = validate(ProductListQuerySchema, query);
      const { count, products } = await listProducts(deps, scope, listQuery);
      return { records: products, count, page: listQuery.page };
    }),
    named(view.lang, form.problem ? undefined : query.created, (id) =>
      getProduct(deps, scope, productIdParam(id)),
    ),
  ]);
  const w = catalogWords[view.lang];
  const notice = made ? w.created(made.name) : deletedNotice(query, w.deletedProduct);
  return pageAnswer(productsPage(view, query, list, form, notice, problem));
}

/** GET /dashboard/products: the active products (GET /v1/products/'s query) and the create form. */
export const showProducts = signedInPage('products', 'products', (deps: Deps, signed: SignedIn) =>
  productsAnswer(deps, signed, freshForm()),
);

/** POST /dashboard/products: createProductFromForm, as POST /v1/products/ calls it (text fields only), once per form. */
export const submitProduct = signedInForm('products', 'products', (deps: CatalogDeps, signed: SignedIn) =>
  submitCreate(
    deps,
    signed,
    productFields,
    productRequired,
    'price',
    'products',
    async (body) => (await createProductFromForm(deps, signed.scope, body)).id,
    (form) => productsAnswer(deps, { ...signed, request: { ...signed.request, query: {} } }, form),
  ),
);

/** GET /dashboard/products/{id}/delete: what deleting the product does. */
export const showProductDelete = signedInPage(
  'products',
  catalogPath('products'),
  (deps: Deps, { scope, view, request }: SignedIn) =>
    confirmation(
      view,
      'products',
      () => getProduct(deps, scope, productIdParam(request.params.id)),
      (product) => productDeletePage(view, product),
    ),
);

/** POST /dashboard/products/{id}/delete: deactivateProduct, as DELETE /v1/products/{id}/ calls it. */
export const submitProductDelete = signedInForm(
  'products',
  catalogPath('products'),
  (deps: Deps, signed: SignedIn) =>
    submitAction(
      signed.view,
      'products',
      async () => {
        await deactivateProduct(deps, signed.scope, productIdParam(signed.request.params.id), deps.clock());
      },
      (problem) => productsAnswer(deps, signed, { ...freshForm(), problem }),
    ),
);
