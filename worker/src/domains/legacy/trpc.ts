import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { legacyOperations } from './operations';

export const legacyRouter = router(toProcedures(legacyOperations));
