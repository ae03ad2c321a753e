import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { canaryOperations } from './operations';

export const canaryRouter = router(toProcedures(canaryOperations));
