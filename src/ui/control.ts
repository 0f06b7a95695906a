import { createClient, type PayemuClient } from '../client/client.js';
import { namespacedKey } from '../lib/namespace-name.js';

/**
 * What the UI's keys do, through payemu's own HTTP control plane (`/_payemu/`), as any
 * other client would: the UI stays outside the server, and its requests show in its own log.
 * Each resolves with a line for the notice bar (or nothing to add), or rejects with one.
 */
export interface Control {
  /** In the event's namespace (its key with `~NAME`). */
  resend(event: { id: string; name: string; source: string; mode: 'test' | 'live'; namespace?: string }): Promise<string>;
  advanceClock(): Promise<string | undefined>;
  trigger(event: string): Promise<string>;
}

export interface ControlSource {
  slug: string;
  test_key: string;
  live_key: string;
}

/** A Control for the emulator at `url`; the clock and triggers act as the first Source in test mode. */
export function httpControl(url: string, sources: readonly ControlSource[]): Control {
  const as = (slug: string, mode: 'test' | 'live', namespace?: string): PayemuClient => {
    const source = sources.find((s) => s.slug === slug) ?? sources[0];
    if (!source) throw new Error('no Source is configured');
    return createClient({ url, key: namespacedKey(mode === 'live' ? source.live_key : source.test_key, namespace) });
  };
  const first = sources[0]?.slug ?? '';

  // A refusal's message is the envelope's detail (its title, or the status): fit for the notice bar.
  return {
    async resend(event) {
      await as(event.source, event.mode, event.namespace).resendEvent(event.id);
      return `resent ${event.name} (${event.id.slice(0, 8)})`;
    },
    async advanceClock() {
      // The bus's clock.advanced notice says where it went and what ran.
      await as(first, 'test').advanceClock({ by: '1d' });
      return undefined;
    },
    async trigger(event) {
      const answer = await as(first, 'test').trigger(event);
      const id = typeof answer.event_id === 'string' ? ` (${answer.event_id.slice(0, 8)})` : '';
      return `triggered ${event}${id}`;
    },
  };
}
