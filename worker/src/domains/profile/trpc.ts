import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { profileOperations } from './operations';

export const profileRouter = router(toProcedures(profileOperations));
