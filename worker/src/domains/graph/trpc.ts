import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { graphOperations } from './operations';

export const graphRouter = router(toProcedures(graphOperations));
