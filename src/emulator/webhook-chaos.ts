import type { PayemuConfig } from '../config/types.js';
import { scopeKey } from '../lib/scope-key.js';
import type { Store } from '../store/store.js';
import { WebhookChaos, type ChaosSettingsOf, type WebhookChaosSettings } from '../webhooks/chaos.js';

/** A scope's webhook chaos as the store holds it (what the dispatcher reads before each first attempt). */
export function chaosSettingsOf(store: Store): ChaosSettingsOf {
  return (source, mode) => store.get(WebhookChaos, scopeKey(source, mode))?.settings;
}

/** `webhookChaos` of the options: stored for every Source in both modes, replacing what each had. */
export function storeChaosForAll(store: Store, config: PayemuConfig, settings: WebhookChaosSettings): void {
  store.transaction((tx) => {
    for (const source of config.sources) {
      for (const mode of ['test', 'live'] as const) tx.put(WebhookChaos, { id: scopeKey(source.slug, mode), source: source.slug, mode, settings });
    }
  });
}
