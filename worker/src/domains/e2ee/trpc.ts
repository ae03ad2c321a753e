import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { e2eeOperations } from './operations';

export const keysRouter = router(toProcedures(e2eeOperations));
