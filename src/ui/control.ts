/**
 * What the UI's keys do, through payemu's own HTTP control plane (`/_payemu/`), as any
 * other client would: the UI stays outside the server, and its requests show in its own log.
 * Each resolves with a line for the notice bar (or nothing to add), or rejects with one.
 */
export interface Control {
  resend(event: { id: string; name: string; source: string; mode: 'test' | 'live' }): Promise<string>;
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
  const keyFor = (slug: string, mode: 'test' | 'live') => {
    const source = sources.find((s) => s.slug === slug) ?? sources[0];
    if (!source) throw new Error('no Source is configured');
    return mode === 'live' ? source.live_key : source.test_key;
  };
  const first = sources[0]?.slug ?? '';

  const post = async (path: string, key: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON: the status says enough */
    }
    if (!res.ok) throw new Error(errorDetail(json) ?? `HTTP ${res.status}`);
    return json;
  };

  return {
    async resend(event) {
      await post(`/_payemu/events/${encodeURIComponent(event.id)}/resend`, keyFor(event.source, event.mode), {});
      return `resent ${event.name} (${event.id.slice(0, 8)})`;
    },
    async advanceClock() {
      // The bus's clock.advanced notice says where it went and what ran.
      await post('/_payemu/clock/advance', keyFor(first, 'test'), { by: '1d' });
      return undefined;
    },
    async trigger(event) {
      const answer = await post('/_payemu/trigger', keyFor(first, 'test'), { event });
      const id = typeof answer.event_id === 'string' ? ` (${answer.event_id.slice(0, 8)})` : '';
      return `triggered ${event}${id}`;
    },
  };
}

/** The `detail` of the `{errors: [...]}` envelope. */
function errorDetail(json: Record<string, unknown>): string | undefined {
  const errors = json.errors;
  if (!Array.isArray(errors)) return undefined;
  const first = errors[0] as { detail?: unknown; title?: unknown } | undefined;
  return typeof first?.detail === 'string' ? first.detail : typeof first?.title === 'string' ? first.title : undefined;
}
