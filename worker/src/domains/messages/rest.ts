import { Hono } from 'hono';
import { MESSAGE_CREATE_MAX_BODY_BYTES, MESSAGE_FILTERS, ZCreateMessageInput, ZMessageId, type MessageFilter } from '../../contracts/messages';
import { jsonInput } from '../../lib/http';
import { requirePrincipal } from '../../middleware/authenticate';
import type { AppEnv } from '../../middleware/context';
import { createMessage } from './create-message';
import { getMessageAudio, getMessageDetail, inboxMessages, listMessages, messageNotFound, pendingMessages } from './read-messages';
import { cancelMessage, deliverNow } from './sender-actions';

/** A malformed id cannot be anyone's message: 404 like any id that is not yours. */
function messageId(raw: string): string {
  const parsed = ZMessageId.safeParse({ id: raw });
  if (!parsed.success) throw messageNotFound();
  return parsed.data.id.toLowerCase();
}

/** SPEC section 7 /api/message/* plus the lookups My Messages, the view page and the inbox need (docs/api.md). */
export const messageRoutes = new Hono<AppEnv>()
  .post('/create', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const input = await jsonInput(c, ZCreateMessageInput, MESSAGE_CREATE_MAX_BODY_BYTES);
    return c.json(await createMessage(c.get('services'), user, input), 201);
  })
  .get('/pending', async (c) => c.json(await pendingMessages(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .get('/list', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const filter = c.req.query('filter') ?? 'all';
    const valid = (MESSAGE_FILTERS as readonly string[]).includes(filter) ? (filter as MessageFilter) : 'all';
    return c.json(await listMessages(c.get('services'), user.id, valid));
  })
  .get('/sent', async (c) => c.json(await listMessages(c.get('services'), requirePrincipal(c.get('principal')).user.id, 'sent')))
  .get('/inbox', async (c) => c.json(await inboxMessages(c.get('services'), requirePrincipal(c.get('principal')).user.id)))
  .get('/:id/audio', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    const object = await getMessageAudio(c.get('services'), user.id, messageId(c.req.param('id')));
    return new Response(object.body, {
      headers: {
        'Content-Type': object.httpMetadata?.contentType ?? 'application/octet-stream',
        'Content-Length': String(object.size),
        'Cache-Control': 'private, no-store',
      },
    });
  })
  .post('/:id/cancel', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await cancelMessage(c.get('services'), user.id, messageId(c.req.param('id'))));
  })
  .get('/:id', async (c) => {
    const { user } = requirePrincipal(c.get('principal'));
    return c.json(await getMessageDetail(c.get('services'), user.id, messageId(c.req.param('id'))));
  });

/** POST /api/messages/deliver/{id}: the sender releases now (SPEC section 7). */
export const messagesDeliverRoutes = new Hono<AppEnv>().post('/deliver/:id', async (c) => {
  const { user } = requirePrincipal(c.get('principal'));
  return c.json(await deliverNow(c.get('services'), user.id, messageId(c.req.param('id'))));
});

