import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { outboxOperations } from './operations';

export const outboxRouter = router(toProcedures(outboxOperations));
