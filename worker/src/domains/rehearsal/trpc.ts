import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { rehearsalOperations } from './operations';

export const rehearsalRouter = router(toProcedures(rehearsalOperations));
