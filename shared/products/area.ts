/** The products area for the stack: its routes. */
import { defineArea } from '../stack/area.ts';
import { productsRoutes } from './routes.ts';

export const productsArea = defineArea({
  name: 'products',
  description: 'Products with prices, taxes, images and a recurrence, which payment links sell.',
  routes: productsRoutes,
});
