import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { authOperations } from './operations';

export const authRouter = router(toProcedures(authOperations));
