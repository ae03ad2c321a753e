import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { memorialOperations } from './operations';

export const memorialRouter = router(toProcedures(memorialOperations));
