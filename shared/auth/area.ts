/** The auth area for the stack: the token and API key routes. */
import { defineArea } from '../stack/area.ts';
import { authRoutes } from './routes.ts';

export const authArea = defineArea({
  name: 'auth',
  description: 'Credentials: access tokens for Bearer authentication, and the API keys of the account.',
  routes: authRoutes,
});
