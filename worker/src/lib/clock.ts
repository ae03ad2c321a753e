/**
 * Time is injected (ARCHITECTURE convention 4): services read `now()` from their context, tests
 * replace it. In the Worker it is the request's wall clock.
 */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
