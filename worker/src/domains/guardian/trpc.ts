import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { guardianOperations } from './operations';

export const guardianRouter = router(toProcedures(guardianOperations));
