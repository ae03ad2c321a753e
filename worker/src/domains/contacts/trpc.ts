import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { contactsOperations } from './operations';

export const contactsRouter = router(toProcedures(contactsOperations));
