import { z } from 'zod';

/**
 * The one id of every path parameter and id field: a UUID, lower-cased so `ABC…` and `abc…` name the
 * same row. A malformed id is never a 422: on a path it is the same 404 as an id that is not yours
 * (worker/src/api/rest-adapter.ts), so nothing tells an outsider which ids exist.
 */
export const ZId = z.uuid({ message: 'Not an id' }).transform((id) => id.toLowerCase());

/** `{id}` path parameter. */
export const ZIdParam = z.object({ id: ZId });
