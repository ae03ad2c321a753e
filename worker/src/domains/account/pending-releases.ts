import type { ServiceContext } from '../../env';

/**
 * Whether the user has releases due that are not delivered yet: a dead-man deletion waits for them
 * (DESIGN section 2). No release can exist before the release engine (messages) capability lands, so
 * today the answer is always no; that capability replaces this body with its query.
 */
export async function hasUndeliveredReleases(_ctx: ServiceContext, _userId: string): Promise<boolean> {
  return false;
}
