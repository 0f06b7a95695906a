/** The library entry point of payemu. */
export { startEmulator, type Emulator, type EmulatorOptions } from './emulator.js';
export { EVENT_NAMES, type EventName } from './bus/events.js';
export type { BusEvents } from './bus/bus.js';
export type { PayemuConfig, SourceConfig } from './config/types.js';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookVerificationReason } from './webhooks/signature.js';
