import type { Bindings } from '../env';

/** The origin users reach (PUBLIC_ORIGIN, no trailing slash): the base of every link the server writes into emails, SMS and notices. */
export const appOrigin = (env: Pick<Bindings, 'PUBLIC_ORIGIN'>) => env.PUBLIC_ORIGIN.replace(/\/+$/, '');
