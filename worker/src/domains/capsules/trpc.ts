import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { capsuleOperations } from './operations';

export const capsuleRouter = router(toProcedures(capsuleOperations));
