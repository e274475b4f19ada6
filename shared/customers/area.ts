/** The customers area for the stack: its routes. */
import { defineArea } from '../stack/area.ts';
import { customersRoutes } from './routes.ts';

export const customersArea = defineArea({
  name: 'customers',
  description:
    'Customers of the account: unique e-mail per mode, metadata, a photo and up to three addresses.',
  routes: customersRoutes,
});
