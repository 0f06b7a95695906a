import type { App } from '../app.js';
import type { Scope } from '../http/auth.js';
import { InvalidInput, Unprocessable } from '../http/errors.js';
import { integer, named, object, oneOfValues, string } from '../schemas/wire.js';
import { newId } from '../lib/ids.js';
import { scopeKey } from '../lib/scope-key.js';
import { savedCard } from '../resources/payment-methods/saved.js';
import { Recurring, recurringId } from '../resources/recurring/records.js';
import {
  OutcomeScripts,
  SCRIPT_STEPS,
  SCRIPT_TARGETS,
  scriptKey,
  type OutcomeScriptRecord,
  type ScriptStep,
  type ScriptTarget,
} from '../resources/outcomes/records.js';

/** At most this many steps in one script: a story, not a load generator. */
const MAX_STEPS = 1000;

export const scriptBody = {
  type: 'object',
  required: ['sequence'],
  properties: {
    payment_method: { type: 'string', minLength: 1, maxLength: 255 },
    schedule: { type: 'string', minLength: 1, maxLength: 255 },
    reference: { type: 'string', minLength: 1, maxLength: 255 },
    sequence: { type: 'array', maxItems: MAX_STEPS, items: { type: 'string' } },
  },
} as const;

export type ScriptBody = Partial<Record<ScriptTarget, string>> & { sequence: string[] };

const step = oneOfValues(SCRIPT_STEPS);
const array = (items: object) => ({ type: 'array', items });

/** One script as the control plane shows it: its one target, the whole sequence, and how many steps are left. */
export const outcomeScript = named('OutcomeScript', {
  anyOf: SCRIPT_TARGETS.map((target) => object({ id: string, [target]: string, sequence: array(step), remaining: integer })),
});

export const outcomeList = named('OutcomeScriptList', object({ outcomes: array(outcomeScript) }));
export const outcomesCleared = named('OutcomeScriptsCleared', object({ removed: integer }));

export type OutcomeScriptView = { id: string; payment_method?: string; schedule?: string; reference?: string; sequence: ScriptStep[]; remaining: number };

export function presentScript(script: OutcomeScriptRecord): OutcomeScriptView {
  return {
    id: script.script_id,
    [script.target]: script.value,
    sequence: script.sequence,
    remaining: script.sequence.length - script.used,
  };
}

/** Checks and stores a script (replacing the target's previous one); a bad one is a 422 and changes nothing. */
export function addScript(app: App, scope: Scope, body: ScriptBody, now: number): OutcomeScriptView {
  const targets = SCRIPT_TARGETS.filter((target) => body[target] !== undefined);
  if (targets.length !== 1) {
    const message =
      targets.length === 0
        ? 'Name what the script is for: one of payment_method, schedule or reference.'
        : `Name one target, not ${targets.length} (${targets.join(', ')}): a script is for one of payment_method, schedule or reference.`;
    throw new InvalidInput(message, Object.fromEntries((targets.length ? targets : ['payment_method']).map((t) => [t, [message]])));
  }
  const target = targets[0]!;
  const value = body[target]!;
  if (!Array.isArray(body.sequence) || body.sequence.length === 0) throw InvalidInput.field('sequence', 'The sequence field must list at least one outcome.');
  body.sequence.forEach((entry, i) => {
    if (!(SCRIPT_STEPS as readonly string[]).includes(entry))
      throw InvalidInput.field(`sequence.${i}`, `"${entry}" is not an outcome: use approved or a failure code (${SCRIPT_STEPS.slice(1).join(', ')}).`);
  });
  const script = app.store.transaction((tx) => {
    if (target === 'payment_method') savedCard(tx, scope, value);
    if (target === 'schedule' && !tx.get(Recurring, recurringId(scope.source.slug, scope.mode, value)))
      throw Unprocessable.field('schedule', `No recurring payment "${value}" in this Source and mode.`);
    const id = scriptKey(scope.source.slug, scope.mode, target, value);
    // Keyed by target: a second script for the same target replaces the first.
    return tx.put(OutcomeScripts, {
      id,
      script_id: newId('out_'),
      source: scope.source.slug,
      mode: scope.mode,
      target,
      value,
      sequence: body.sequence as ScriptStep[],
      used: 0,
      created_at: now,
    });
  });
  return presentScript(script);
}

export function listScripts(app: App, scope: Scope): OutcomeScriptView[] {
  return app.store.find(OutcomeScripts, 'scope', scopeKey(scope.source.slug, scope.mode)).map(presentScript);
}

/** Removes every script of the scope; answers how many there were. */
export function clearScripts(app: App, scope: Scope): number {
  return app.store.transaction((tx) => {
    const scripts = tx.find(OutcomeScripts, 'scope', scopeKey(scope.source.slug, scope.mode));
    for (const script of scripts) tx.delete(OutcomeScripts, script.id);
    return scripts.length;
  });
}
