import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { chatImportOperations } from './operations';

export const chatImportRouter = router(toProcedures(chatImportOperations));
