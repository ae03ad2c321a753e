import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { vaultOperations } from './operations';

export const vaultRouter = router(toProcedures(vaultOperations));
