/** The customers area for the stack: its routes. */
import { defineArea } from '../http/area.ts';
import { customersRoutes } from './routes.ts';

export const customersArea = defineArea({ name: 'customers', routes: customersRoutes });
