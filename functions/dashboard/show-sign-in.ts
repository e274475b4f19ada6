/** GET /dashboard/sign-in: the dashboard's sign-in form (shared/dashboard/http.ts). */
import { showSignIn } from '../../shared/dashboard/http.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

export const handler = publicEndpoint(showSignIn({ baseUrl: publicBaseUrl() }), { parseBody: false });
