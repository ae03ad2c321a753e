import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { legalOperations } from '../legal/operations';
import { deadmanOperations } from './operations';

export const deadmanRouter = router(toProcedures(deadmanOperations));

export const legalRouter = router(toProcedures(legalOperations));
