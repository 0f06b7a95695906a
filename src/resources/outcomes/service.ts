import type { Mode } from '../../config/types.js';
import type { Transaction } from '../../store/store.js';
import { FAILURE_MESSAGES, type CardOutcome } from '../common/test-cards.js';
import { OutcomeScripts, SCRIPT_TARGETS, scriptKey, type ScriptStep, type ScriptTarget } from './records.js';

/** The targets a card payment attempt matches: its payment reference, its schedule's reference, its saved card. */
export type AttemptTargets = Partial<Record<ScriptTarget, string | undefined>>;

/**
 * The scripted outcome of a card payment attempt, if a script matches it: the strongest
 * matching script (reference, then schedule, then card) gives its next step, inside the
 * attempt's transaction, and leaves the store once used up. Weaker scripts are not touched.
 */
export function takeScriptedStep(tx: Transaction, source: string, mode: Mode, targets: AttemptTargets): ScriptStep | undefined {
  if (tx.none(OutcomeScripts)) return undefined;
  for (const target of SCRIPT_TARGETS) {
    const value = targets[target];
    if (value === undefined) continue;
    const script = tx.get(OutcomeScripts, scriptKey(source, mode, target, value));
    if (!script) continue;
    const step = script.sequence[script.used]!;
    if (script.used + 1 >= script.sequence.length) tx.delete(OutcomeScripts, script.id);
    else tx.put(OutcomeScripts, { ...script, used: script.used + 1 });
    return step;
  }
  return undefined;
}

/** A failure as payments record it, for a scripted decline. */
export function scriptedFailure(step: Exclude<ScriptStep, 'approved'>): { code: Exclude<ScriptStep, 'approved'>; message: string } {
  return { code: step, message: FAILURE_MESSAGES[step] };
}

/**
 * A presented card's outcome with a scripted step laid over it. `approved` approves a card
 * whose brand payemu knows (a card of no brand stays declined: there is nothing to record it as).
 */
export function withScriptedStep<O extends Exclude<CardOutcome, { outcome: 'three_ds' }>>(
  outcome: O,
  step: ScriptStep | undefined,
): Exclude<CardOutcome, { outcome: 'three_ds' }> {
  if (step === undefined) return outcome;
  if (step !== 'approved') return { outcome: 'decline', brand: outcome.brand, last4: outcome.last4, ...scriptedFailure(step) };
  if (outcome.outcome === 'approve' || outcome.brand === null) return outcome;
  return { outcome: 'approve', brand: outcome.brand, last4: outcome.last4, declineOffSession: false };
}
