import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { deadmanOperations } from './operations';

export const deadmanRouter = router(toProcedures(deadmanOperations));
