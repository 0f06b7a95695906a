/**
 * What a delivery attempt carried, as its log entry says (`chaos` of the Attempt answer): a fact
 * of the wire, which the dispatcher (src/webhooks/) writes and the answer's schema lists. Here, so
 * that the schemas need nothing of the webhooks engine.
 */
export const CHAOS_KINDS = ['duplicate', 'delayed', 'stale_timestamp', 'bad_signature'] as const;

export type ChaosKind = (typeof CHAOS_KINDS)[number];
