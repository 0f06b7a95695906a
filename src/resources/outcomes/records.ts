import type { Mode } from '../../config/types.js';
import { byScope } from '../../lib/scope-key.js';
import { collection } from '../../store/collection.js';
import type { FailureCode } from '../common/test-cards.js';
import { outcomeScriptRecordSchema } from './record-schema.js';

/** What a scripted step makes of a card payment attempt. */
export type ScriptStep = 'approved' | FailureCode;

export const SCRIPT_STEPS: readonly ScriptStep[] = [
  'approved',
  'insufficient_funds',
  'card_declined',
  'expired_card',
  'incorrect_cvc',
  'authentication_failed',
  'card_not_supported',
];

/** What a script is for, strongest first: a reference's script wins over a schedule's, a schedule's over a card's. */
export const SCRIPT_TARGETS = ['reference', 'schedule', 'payment_method'] as const;
export type ScriptTarget = (typeof SCRIPT_TARGETS)[number];

/**
 * A scripted sequence of outcomes for the next card payment attempts on one target of a Source
 * and mode. Keyed by its target (`source:mode:target:value`), so a second script for the same
 * target replaces the first and an attempt finds its script with one read.
 */
export interface OutcomeScriptRecord {
  id: string;
  /** The public id, `out_...`. */
  script_id: string;
  source: string;
  mode: Mode;
  target: ScriptTarget;
  /** The pm_ id, the schedule's reference, or the payment reference. */
  value: string;
  sequence: ScriptStep[];
  /** Steps taken so far; the script leaves the store when it reaches the sequence's length. */
  used: number;
  created_at: number;
}

export const scriptKey = (source: string, mode: Mode, target: ScriptTarget, value: string) => `${source}:${mode}:${target}:${value}`;

export const OutcomeScripts = collection<OutcomeScriptRecord>('outcome_scripts', { scope: byScope }, undefined, outcomeScriptRecordSchema, storedScriptProblem);

/**
 * A stored script already used up (it would have left the store), or keyed for another target
 * than its own (two scripts could then act on one target): a snapshot document's script is held
 * to what payemu writes.
 */
function storedScriptProblem(script: OutcomeScriptRecord): [field: string, message: string] | undefined {
  if (script.used >= script.sequence.length)
    return ['used', `The used field must be below the sequence's length (${script.sequence.length}): a used-up script leaves the store.`];
  const key = scriptKey(script.source, script.mode, script.target, script.value);
  if (script.id !== key) return ['id', `The id field must be "${key}", the script's Source, mode, target and value.`];
  return undefined;
}
