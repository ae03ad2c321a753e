import { toProcedures } from '../../api/trpc-adapter';
import { router } from '../../trpc/init';
import { developerOperations } from './operations';

/** `developer.keys.*` (the web app's Developer page). tRPC is session-only: a key never gets here. */
export const developerKeysRouter = router(toProcedures(developerOperations));
