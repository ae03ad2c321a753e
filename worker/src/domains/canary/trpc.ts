import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { activityOperations } from '../activity/operations';
import { canaryOperations } from './operations';

export const canaryRouter = router(toProcedures(canaryOperations));

export const activityRouter = router(toProcedures(activityOperations));
