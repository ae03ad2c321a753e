import type { TSealedPayload } from '@afterword/worker/contracts/e2ee';
import type { MessageView } from '@afterword/worker/contracts/messages';
import { useEffect, useState } from 'react';
import { openEnvelope } from '../../crypto';
import { trpc } from '../../lib/trpc';
import { useUnlockedKey } from './key-store';
import { T } from './texts';

export interface Reader {
  kid: string;
  privateKey: CryptoKey;
}

export type OpenedMessage =
  | { state: 'plain' }
  | { state: 'locked' }
  | { state: 'opening' }
  | { state: 'open'; payload: TSealedPayload; contentKey: CryptoKey }
  | { state: 'failed'; message: string };

/** An E2EE message's content: it has an envelope (content stays empty). */
export const isSealed = (m: Pick<MessageView, 'use_e2ee' | 'content_encrypted'>) => m.use_e2ee && !!m.content_encrypted;

/** The user-facing reason a typed crypto failure gives; never the ciphertext, never a partial plaintext. */
export function openFailureText(error: unknown): string {
  switch ((error as { code?: string } | null)?.code) {
    case 'not-a-recipient':
      return T.notForYou;
    case 'wrong-key':
      return T.wrongKey;
    case 'tampered':
      return T.tampered;
    default:
      return T.unreadable;
  }
}

/** The signed-in user as a reader: their id, and their private key when this tab has it unlocked. */
export function useReader(): { userId: string | undefined; reader: Reader | null } {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  const userId = me.data?.id;
  const privateKey = useUnlockedKey(userId);
  return { userId, reader: userId && privateKey ? { kid: userId, privateKey } : null };
}

/** Opens a message's envelope locally with the reader's key, whenever the message or the key changes. */
export function useOpenedMessage(message: Pick<MessageView, 'id' | 'use_e2ee' | 'content_encrypted'>, reader: Reader | null): OpenedMessage {
  const sealed = isSealed(message);
  const envelope = message.content_encrypted;
  const [state, setState] = useState<OpenedMessage>(() => (!sealed ? { state: 'plain' } : reader ? { state: 'opening' } : { state: 'locked' }));

  useEffect(() => {
    if (!sealed || !envelope) {
      setState({ state: 'plain' });
      return;
    }
    if (!reader) {
      setState({ state: 'locked' });
      return;
    }
    let live = true;
    setState({ state: 'opening' });
    openEnvelope(envelope, reader).then(
      ({ payload, contentKey }) => live && setState({ state: 'open', payload, contentKey }),
      (error: unknown) => live && setState({ state: 'failed', message: openFailureText(error) }),
    );
    return () => {
      live = false;
    };
  }, [sealed, envelope, reader?.kid, reader?.privateKey]); // eslint-disable-line react-hooks/exhaustive-deps

  return state;
}
