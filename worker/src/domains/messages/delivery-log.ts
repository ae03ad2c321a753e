/** GET /api/notify/logs/{id} lives with the messages it logs; the notify REST router serves it. */
export { getDeliveryLog } from './read-messages';
