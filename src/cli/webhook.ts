import type { WebhookDestinationView } from '../client/types.js';
import { destinationProblem } from '../webhooks/destination.js';
import { connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

/** What `connect` reads (--url, --key, and whatever else it comes to take), and --json. */
type Options = Parameters<typeof connect>[0] & { json?: boolean };

/** `payemu webhook [show]`: where the key's Source's webhooks go now. */
export async function show(options: Options): Promise<void> {
  const out = output(options);
  const answer = await connect(options).webhook();
  out.result(answer, () => describe(answer));
}

/** `payemu webhook set URL`: the key's Source's webhooks go to URL (both modes), over the config's. */
export async function set(url: string, options: Options): Promise<void> {
  // The server's rule, checked before any request: a wrong URL is a usage error, as a wrong chaos list is.
  const problem = destinationProblem(url);
  if (problem) throw new CliError(`webhook set: ${problem.replace(/^The url field/, url)} See \`payemu webhook set --help\`.`, EXIT.usage);
  const out = output(options);
  const answer = await connect(options).setWebhook(url);
  out.result(answer, () => describe(answer));
}

/** `payemu webhook clear`: back to the config's webhook_url, else --webhook-url. */
export async function clear(options: Options): Promise<void> {
  const out = output(options);
  const answer = await connect(options).clearWebhook();
  out.result(answer, () => describe(answer));
}

/** `acme webhooks -> URL (set at run time)`, or where they come from. */
function describe(view: WebhookDestinationView): string {
  if (view.url === null) return `${view.source} webhooks go nowhere: set a URL with \`payemu webhook set URL\`, --webhook-url or webhook_url in the config`;
  return `${view.source} webhooks -> ${view.url} (${view.overridden ? 'set at run time, over the config' : 'from webhook_url or --webhook-url'})`;
}
