import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { attachmentsOperations, storageOperations } from './operations';

/** The JSON parts of attachments (uploads are multipart and downloads binary: REST only). */
export const attachmentsRouter = router(toProcedures([...attachmentsOperations, ...storageOperations]));
