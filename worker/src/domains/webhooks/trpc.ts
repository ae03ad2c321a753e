import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { webhooksOperations } from './operations';

/** The same declarations as /api/developer/webhooks. */
export const webhooksRouter = router(toProcedures(webhooksOperations));
