/**
 * The team area: an account's dashboard users, their roles, passwords and second factors, one-time
 * links and the audit log. It has no routes of its own: the dashboard's pages and the operator's
 * command line call it.
 */
import { defineArea } from '../stack/area.ts';

export const teamArea = defineArea({
  name: 'team',
  description:
    'The people of an account who sign in to the dashboard: users with roles, passwords, second factors and one-time links, and the audit log of what they change.',
});
