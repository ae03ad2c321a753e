import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';

/**
 * One per canary: its alarm will be the canary's deadline timer. The canary engine capability
 * (issue 3) gives it its schedule; until then the class exists so the binding and its storage
 * migration are in place, and it refuses every call rather than pretending to keep time.
 */
export class CanaryClock extends DurableObject<Bindings> {
  override async fetch(): Promise<Response> {
    return Response.json({ detail: 'Canary timers are not built yet' }, { status: 501 });
  }
}
