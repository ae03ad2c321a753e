import type { RouteDoc } from '../route-doc';
import { routes as accounts } from './auth';
import { routes as activity } from './activity';
import { routes as canary } from './canary';
import { routes as deadman } from './deadman';
import { routes as health } from './health';
import { routeDocsOf } from '../../api/route-docs';
import { attachmentsOperations, storageOperations } from '../../domains/attachments/operations';
import { developerOperations } from '../../domains/developer/operations';
import { e2eeOperations } from '../../domains/e2ee/operations';
import { messageOperations } from '../../domains/messages/operations';
import { notifyOperations } from '../../domains/notify/operations';
import { profileOperations } from '../../domains/profile/operations';
import { webhooksOperations } from '../../domains/webhooks/operations';
import { routes as outbox } from './outbox';
import { routes as reference } from './reference';

/**
 * Every documented REST route, one file per area. The order is the order of the document (and of the
 * reference's sidebar). worker/test/openapi-contract.test.ts checks this list against the routes
 * createApp() serves, both ways.
 */
export const ROUTE_DOCS: RouteDoc[] = [
  ...accounts,
  ...canary,
  ...activity,
  ...deadman,
  ...routeDocsOf(messageOperations),
  ...routeDocsOf(attachmentsOperations),
  ...routeDocsOf(notifyOperations),
  ...routeDocsOf([...profileOperations, ...storageOperations]),
  ...routeDocsOf(e2eeOperations),
  ...routeDocsOf(developerOperations),
  ...routeDocsOf(webhooksOperations),
  ...outbox,
  ...health,
  ...reference,
];
