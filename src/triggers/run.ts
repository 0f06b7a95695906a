import type { App } from '../app.js';
import { formatDate } from '../clock/format.js';
import type { Scope } from '../http/auth.js';
import { HttpError, Unprocessable } from '../http/errors.js';
import { loadFixtures } from './fixtures.js';
import { render } from './template.js';

export interface TriggerResult {
  event: string;
  /** The id of the event the trigger made happen (null if it did not happen). */
  event_id: string | null;
  source: string;
  mode: string;
  steps: { id: string; method: string; path: string; status: number; created: string | null }[];
}

/**
 * Makes `event` happen through real state changes: runs its fixture's API calls against this
 * emulator over HTTP, as the given Source and mode, and names the event that resulted.
 */
export async function runTrigger(app: App, scope: Scope, event: string, data: Record<string, unknown> = {}): Promise<TriggerResult> {
  const { fixtures, defaults } = loadFixtures();
  const fixture = fixtures.get(event);
  if (!fixture) {
    throw Unprocessable.field('event', `Unknown event "${event}". Events: ${[...fixtures.keys()].join(', ')}.`);
  }
  const key = scope.mode === 'test' ? scope.source.test_key : scope.source.live_key;
  const vars: Record<string, unknown> = {
    ...defaults,
    ...data,
    metadata: { ...(defaults.metadata as object), ...(data.metadata as object | undefined) },
    today: formatDate(app.clock.now()),
    source_currency: scope.source.currency,
  };
  let eventId: string | null = null;
  const off = app.bus.on('domain', (e) => {
    if (eventId === null && e.name === event && e.source === scope.source.slug && e.mode === scope.mode) eventId = e.id;
  });
  const steps: TriggerResult['steps'] = [];
  try {
    for (const step of fixture.steps) {
      const path = render(step.path, vars) as string;
      const body = step.body === undefined ? undefined : JSON.stringify(render(step.body, vars));
      const res = await fetch(`${app.baseUrl()}${path}`, {
        method: step.method,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body,
      });
      const answer = (await res.json().catch(() => null)) as Record<string, any> | null;
      steps.push({ id: step.id, method: step.method, path, status: res.status, created: createdId(answer) });
      if (!res.ok) {
        const detail = answer?.errors?.[0]?.detail ?? `HTTP ${res.status}`;
        throw new HttpError(res.status >= 500 ? 500 : res.status, `The trigger's step "${step.id}" (${step.method} ${path}) was refused: ${detail}`, answer?.errors?.[0]?.meta);
      }
      vars[step.id] = answer;
    }
  } finally {
    off();
  }
  return { event, event_id: eventId, source: scope.source.slug, mode: scope.mode, steps };
}

function createdId(answer: Record<string, any> | null): string | null {
  const id = answer?.data?.id ?? answer?.payment?.id ?? answer?.session?.id ?? null;
  return id === null || id === undefined ? null : String(id);
}
