/** The auth area for the stack: the token and API key routes. */
import { defineArea } from '../http/area.ts';
import { authRoutes } from './routes.ts';

export const authArea = defineArea({ name: 'auth', routes: authRoutes });
