/**
 * The attempts area for the stack: nothing of its own. Money movements' attempts are stored by the
 * areas that move money, and recovered by the ledger's schedule.
 */
import { defineArea } from '../stack/area.ts';

export const attemptsArea = defineArea({
  name: 'attempts',
  description: 'Every movement of money stored as an attempt before the acquirer is asked, and its recovery.',
});
