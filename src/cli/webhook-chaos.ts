import type { WebhookChaosView } from '../client/types.js';
import { parseChaosList } from '../webhooks/chaos.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

interface Options extends ConnectOptions {
  json?: boolean;
}

/** `payemu webhook-chaos set LIST`: replaces the key's Source and mode's webhook chaos. */
export async function set(list: string, options: Options): Promise<void> {
  let settings: WebhookChaosView;
  try {
    settings = parseChaosList(list);
  } catch (error) {
    throw new CliError(`webhook-chaos set: ${(error as Error).message.replace(/\.$/, '')}. See \`payemu webhook-chaos set --help\`.`, EXIT.usage);
  }
  const out = output(options);
  const answer = await connect(options).setWebhookChaos(settings);
  out.result(answer, () => `webhook chaos set: ${describe(answer)}`);
}

/** `payemu webhook-chaos [show]`. */
export async function show(options: Options): Promise<void> {
  const out = output(options);
  const answer = await connect(options).webhookChaos();
  out.result(answer, () => `webhook chaos: ${describe(answer)}`);
}

/** `payemu webhook-chaos clear`. */
export async function clear(options: Options): Promise<void> {
  const out = output(options);
  const answer = await connect(options).clearWebhookChaos();
  out.result(answer, () => 'webhook chaos: off');
}

/** `duplicate=0.2,delay=5s,seed=7` (the form `set` takes), or `off`. */
function describe(settings: WebhookChaosView): string {
  const parts = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  return parts.length > 0 ? parts.join(',') : 'off';
}
