import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';
import type { OutcomeScript, OutcomeScriptInput } from '../client/types.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

interface AddOptions extends Options {
  paymentMethod?: string;
  schedule?: string;
  reference?: string;
  sequence: string;
}

/** `payemu outcome add --payment-method pm_x|--schedule REF|--reference REF --sequence approved,insufficient_funds`. */
export async function add(options: AddOptions): Promise<void> {
  const targets = [
    ['payment_method', options.paymentMethod],
    ['schedule', options.schedule],
    ['reference', options.reference],
  ].filter(([, value]) => value !== undefined);
  if (targets.length !== 1)
    throw new CliError('outcome add takes one of --payment-method, --schedule or --reference. See `payemu outcome add --help`.', EXIT.usage);
  const sequence = options.sequence
    .split(',')
    .map((step) => step.trim())
    .filter(Boolean);
  const [target, value] = targets[0]!;
  const script = await connect(options).addOutcome({ [target!]: value, sequence } as OutcomeScriptInput);
  output(options).result(script, () => `scripted ${describe(script)}`);
}

/** `payemu outcome list`. */
export async function list(options: Options): Promise<void> {
  const scripts = await connect(options).outcomes();
  output(options).result({ outcomes: scripts }, () => (scripts.length ? scripts.map(describe).join('\n') : 'no scripted outcomes'));
}

/** `payemu outcome clear`. */
export async function clear(options: Options): Promise<void> {
  const result = await connect(options).clearOutcomes();
  output(options).result(result, () => `removed ${result.removed} scripted outcome${result.removed === 1 ? '' : 's'}`);
}

function describe(script: OutcomeScript): string {
  const target = script.payment_method ?? script.schedule ?? script.reference;
  const kind = script.payment_method ? 'card' : script.schedule ? 'schedule' : 'reference';
  const done = script.sequence.length - script.remaining;
  const steps = script.sequence.map((step, i) => (i < done ? `(${step})` : step)).join(', ');
  return `${script.id}  ${kind} ${target}: ${steps}  (${script.remaining} left)`;
}
