import type { PayemuClient } from '../client/client.js';
import type { Card, PaymentSummary } from '../client/types.js';
import { formatAmount } from '../lib/money.js';
import { type ConnectOptions, connect } from './client.js';
import { CliError, EXIT } from './errors.js';
import { output } from './output.js';

export interface PayOptions extends ConnectOptions {
  card: string;
  '3ds'?: 'pass' | 'fail';
  json?: boolean;
}

/** The fields printed of the three answers (a session's, an invoice's, a payment link's): each has some of them. */
interface PayAnswer {
  payment?: PaymentSummary;
  updated?: boolean;
  payment_method?: { card_brand: string; card_last: string };
  failure_code?: string;
  failure_message?: string;
}

/** What to pay, and where: a URL says the emulator's origin, and its namespace when its path starts with `/~NAME/`. */
type Target = { pay: (client: PayemuClient, card: Card) => Promise<PayAnswer>; origin?: string; namespace?: string };

/**
 * `payemu pay <target>`: pays as the hosted page would. The target is a session id (`cs_...`)
 * or checkout / card-update URL, an invoice id (`inv_...`) or URL, or a payment link id or URL.
 * A URL also says where the emulator is, and a namespace's page URL (`/~w3/checkout/...`) which
 * namespace: it wins over PAYEMU_NAMESPACE, and --namespace naming another is a usage error.
 */
export async function pay(target: string, options: PayOptions): Promise<void> {
  const { pay, origin, namespace } = resolve(target);
  if (namespace !== undefined && options.namespace !== undefined && options.namespace !== namespace)
    throw new CliError(`${target} is a page of namespace ${namespace}, not of --namespace ${options.namespace}`, EXIT.usage);
  const client = connect({ ...options, url: options.url ?? origin, namespace: options.namespace ?? namespace });
  const out = output(options);
  const result = await pay(client, { card_number: options.card, ...(options['3ds'] ? { three_ds: options['3ds'] } : {}) });
  out.result(result, () => {
    if (result.payment) {
      const p = result.payment;
      const ok = p.status === 'PAID' || p.status === 'AUTHORIZED';
      const status = ok ? out.c.green(p.status) : out.c.red(p.status);
      return `${status} ${formatAmount(p.amount, p.currency)} reference ${p.reference} (payment ${p.id})${p.failure_message ? `\n  ${p.failure_code}: ${p.failure_message}` : ''}`;
    }
    return result.updated
      ? `${out.c.green('card updated')}: ${result.payment_method?.card_brand} ending ${result.payment_method?.card_last}`
      : `${out.c.red('card refused')}: ${result.failure_message}`;
  });
  if (result.payment?.status === 'FAILED' || result.updated === false) process.exitCode = EXIT.refused;
}

function resolve(target: string): Target {
  let origin: string | undefined;
  let namespace: string | undefined;
  let id = target;
  if (/^https?:\/\//.test(target)) {
    const url = new URL(target);
    origin = url.origin;
    const match = /^(?:\/~([a-z0-9_-]{1,32}))?\/(checkout|card-update|invoices|pay)\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) throw new CliError(`${target} is not a checkout, card-update, invoice or payment link URL`, EXIT.usage);
    namespace = match[1];
    id = match[3]!;
  }
  const where = { origin, ...(namespace === undefined ? {} : { namespace }) };
  if (id.startsWith('cs_')) return { pay: (client, card) => client.completeSession(id, card), ...where };
  if (id.startsWith('inv_')) return { pay: (client, card) => client.payInvoice(id, card), ...where };
  if (/^\d+$/.test(id)) return { pay: (client, card) => client.payLink(id, card), ...where };
  throw new CliError(
    `cannot tell what "${target}" is: give a session id (cs_...), an invoice id (inv_...), a payment link id, or one of their URLs`,
    EXIT.usage,
  );
}
