import type { RouteDoc } from '../route-doc';
import { routes as developerKeys } from './developer-keys';
import { routes as webhooks } from './webhooks';

/** Every documented REST route. Each file lists one area; the OpenAPI work adds the others here. */
export const ROUTE_DOCS: RouteDoc[] = [...developerKeys, ...webhooks];
