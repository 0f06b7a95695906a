import type { ScriptStep } from '../../resources/outcomes/records.js';
import { type Input, operation, type ScopeOption } from '../operation.js';
import { addScript, outcomeScript, scriptBody, type ScriptBody } from '../outcomes.js';

/** A script: one target and the outcomes (`approved` or a failure code) in order; the library's are typed as steps. */
export type OutcomeScriptInput<Step extends string = string> = ({ payment_method: string } | { schedule: string } | { reference: string }) & {
  sequence: Step[];
};

/** `POST /_payemu/outcomes`: scripts the outcomes of the next card payment attempts on a saved card, a schedule or a reference. */
export const outcomesAdd = operation({
  method: 'POST',
  path: '/_payemu/outcomes',
  summary: 'Script the outcomes of the next card payment attempts on a saved card, a schedule or a payment reference',
  body: scriptBody,
  status: 201,
  result: outcomeScript,
  errors: [422],
  run: (app, scope, { body }: Input<ScriptBody>, { now }) => addScript(app, scope, body, now),
  client: { name: 'addOutcome', args: (script: OutcomeScriptInput) => ({ body: script }) },
  library: {
    at: 'outcomes.add',
    args: (script: OutcomeScriptInput<ScriptStep>, options?: ScopeOption) => ({ scope: options ?? {}, input: { body: script } }),
  },
});
