import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { moderationOperations } from './operations';

export const moderationRouter = router(toProcedures(moderationOperations));
