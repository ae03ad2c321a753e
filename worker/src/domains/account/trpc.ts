import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { accountOperations } from './operations';

export const accountRouter = router(toProcedures(accountOperations));
