/** The search area for the stack: no routes of its own; the operator CLI rebuilds search entries. */
import { defineArea } from '../stack/area.ts';

export const searchArea = defineArea({
  name: 'search',
  description: 'The search entries of plans, customers and products.',
});
