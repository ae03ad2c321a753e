import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { voiceOperations } from './operations';

export const voiceRouter = router(toProcedures(voiceOperations));
