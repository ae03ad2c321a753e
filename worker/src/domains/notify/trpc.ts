import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { notifyOperations } from './operations';

export const notifyRouter = router(toProcedures(notifyOperations));
