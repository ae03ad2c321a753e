import type { RouteDoc } from '../route-doc';
import { routes as googleSignIn } from './auth';
import { routes as attachments } from './attachments';
import { routes as pingWithGet } from './canary';
import { routes as developerKeys } from './developer-keys';
import { routes as health } from './health';
import { routes as keys } from './keys';
import { routeDocsOf } from '../../api/route-docs';
import { activityOperations } from '../../domains/activity/operations';
import { authOperations } from '../../domains/auth/operations';
import { canaryOperations } from '../../domains/canary/operations';
import { deadmanOperations } from '../../domains/deadman/operations';
import { legalOperations } from '../../domains/legal/operations';
import { messageOperations } from '../../domains/messages/operations';
import { outboxOperations } from '../../domains/outbox/operations';
import { routes as notify } from './notify';
import { routes as profile } from './profile';
import { routes as reference } from './reference';
import { routes as webhooks } from './webhooks';

/**
 * Every documented REST route, one file per area. The order is the order of the document (and of the
 * reference's sidebar). worker/test/openapi-contract.test.ts checks this list against the routes
 * createApp() serves, both ways.
 */
export const ROUTE_DOCS: RouteDoc[] = [
  ...routeDocsOf(authOperations),
  ...googleSignIn,
  ...routeDocsOf(canaryOperations),
  ...pingWithGet,
  ...routeDocsOf(activityOperations),
  ...routeDocsOf(deadmanOperations),
  ...routeDocsOf(legalOperations),
  ...routeDocsOf(messageOperations),
  ...attachments,
  ...notify,
  ...profile,
  ...keys,
  ...developerKeys,
  ...webhooks,
  ...routeDocsOf(outboxOperations),
  ...health,
  ...reference,
];
