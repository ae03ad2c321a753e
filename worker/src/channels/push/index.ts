/** Web Push channel: RFC 8291 encryption, RFC 8292 VAPID, delivery and the env-chosen factory. */
export { encryptPushPayload, MAX_PUSH_PLAINTEXT_BYTES } from './encrypt';
export { generateVapidKeys, importVapid, vapidAuthorization, type VapidConfig, type VapidSigner } from './vapid';
export {
  classifyPushStatus,
  createPushChannel,
  pushPayload,
  sendWebPush,
  type PushChannel,
  type PushEnv,
  type PushPayload,
  type SendWebPushOptions,
  type Urgency,
} from './send';
