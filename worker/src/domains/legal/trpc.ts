import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { legalOperations } from './operations';

export const legalRouter = router(toProcedures(legalOperations));
