/** The library entry point of payemu: start an emulator in-process, verify its webhooks. */
export { startEmulator, type Emulator, type EmulatorOptions, type NamespaceEmulator, type RequestsFilter } from './emulator.js';
export type { RequestEntryView } from './http/request-journal.js';
export { EVENT_NAMES } from './modules.js';
export type { BusEvents } from './bus/bus.js';
export type { PayemuConfig, SourceConfig } from './config/types.js';
export type { TriggerResult } from './control/triggers/run.js';
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookVerificationReason } from './webhooks/signature.js';
export type { WebhookChaosSettings } from './webhooks/chaos.js';
export type * from './types.js';
export type * from './control/types.js';
