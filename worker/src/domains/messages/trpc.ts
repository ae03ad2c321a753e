import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { messageOperations } from './operations';

export const messageRouter = router(toProcedures(messageOperations));
