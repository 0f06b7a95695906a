import type { App } from '../app.js';
import type { PayemuConfig } from '../config/types.js';
import { scopeKey } from '../lib/scope-key.js';
import type { Store } from '../store/store.js';
import { checkChaos, WebhookChaos, type ChaosSettingsOf, type WebhookChaosSettings } from '../webhooks/chaos.js';
import { chaosScope } from './scope.js';
import type { Emulator } from './types.js';

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

/** `Emulator.webhookChaos`: a scope's settings, as `/_payemu/webhook-chaos` keeps them. */
export function webhookChaosMethods(app: App): Emulator['webhookChaos'] {
  const { store } = app;
  const chaosOf = chaosSettingsOf(store);
  return {
    set(settings, scope = {}) {
      const { source, mode } = chaosScope(app, scope);
      const checked = checkChaos(settings);
      if ('field' in checked) throw new RangeError(`webhookChaos.set: ${checked.field}: ${checked.message}`);
      store.transaction((tx) => tx.put(WebhookChaos, { id: scopeKey(source, mode), source, mode, settings: checked.settings }));
      return { ...checked.settings };
    },
    get: (scope = {}) => {
      const { source, mode } = chaosScope(app, scope);
      return { ...chaosOf(source, mode) };
    },
    clear(scope = {}) {
      const { source, mode } = chaosScope(app, scope);
      if (chaosOf(source, mode)) store.transaction((tx) => tx.delete(WebhookChaos, scopeKey(source, mode)));
    },
  };
}
