import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { activityOperations } from './operations';

export const activityRouter = router(toProcedures(activityOperations));
