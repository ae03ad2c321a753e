import { ZMessageAttachmentsInput } from '../../contracts/attachments';
import { protectedProcedure, router } from '../../trpc/init';
import { listAttachments } from './read-attachments';
import { getStorage } from './storage';

/** The JSON parts of attachments (uploads are multipart and downloads binary: REST only). */
export const attachmentsRouter = router({
  list: protectedProcedure.input(ZMessageAttachmentsInput).query(({ ctx, input }) => listAttachments(ctx.services, ctx.principal.user.id, input.message_id)),
  storage: protectedProcedure.query(({ ctx }) => getStorage(ctx.services, ctx.principal.user)),
});
