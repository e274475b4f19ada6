/** The taxes area for the stack: its routes. */
import { defineArea } from '../stack/area.ts';
import { taxesRoutes } from './routes.ts';

export const taxesArea = defineArea({
  name: 'taxes',
  description: 'Tax rates in percent that products name.',
  routes: taxesRoutes,
});
