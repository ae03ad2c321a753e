import { z } from 'zod';
import { ZKeyBundle } from '../../contracts/e2ee';
import type { RouteDoc } from '../route-doc';
import { ZKeyBundleView, ZPublicKeyView } from '../schemas';

const tags = ['Encryption keys'];

/** /api/keys/*: end-to-end encryption key bundles (domains/e2ee/rest.ts). Formats: contracts/e2ee.ts. */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/keys/me',
    operationId: 'getOwnKeys',
    summary: "The caller's key bundle",
    description: 'The public key and the private key wrapped under the password and under the recovery key; the server never sees a private key.',
    tags,
    auth: 'session',
    responses: { 200: { description: 'The bundle', schema: ZKeyBundleView }, 404: { description: 'No encryption keys yet' } },
  },
  {
    method: 'put',
    path: '/api/keys/me',
    operationId: 'createKeys',
    summary: 'Store the first key bundle',
    description: 'Once per account: later bundles only come with a password reset.',
    tags,
    auth: 'session',
    request: { body: ZKeyBundle },
    responses: { 201: { description: 'Stored', schema: ZKeyBundleView }, 409: { description: 'The account already has keys' } },
  },
  {
    method: 'get',
    path: '/api/keys/{userId}',
    operationId: 'getPublicKey',
    summary: "A user's public key",
    description: 'What a sender needs to seal a message for that user.',
    tags,
    auth: 'session',
    request: { params: z.object({ userId: z.uuid() }) },
    responses: { 200: { description: 'The public key', schema: ZPublicKeyView }, 404: { description: 'No such user, or the user has no keys' } },
  },
];
