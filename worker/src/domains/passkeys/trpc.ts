import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { passkeyOperations } from './operations';

export const passkeysRouter = router(toProcedures(passkeyOperations));
