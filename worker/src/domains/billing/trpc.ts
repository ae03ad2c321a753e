import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { billingOperations } from './operations';

export const billingRouter = router(toProcedures(billingOperations));
