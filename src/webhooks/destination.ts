import net from 'node:net';
import { isSafeUrl } from '../lib/schemas.js';
import { collection } from '../store/collection.js';
import { recordSchema, text } from '../store/record-schema.js';
import { isPublicAddress } from './strict-url.js';

/**
 * A Source's own webhook destination (`PUT /_payemu/webhook`): set at run time, it wins over the
 * config's `webhook_url` and `--webhook-url`, in both modes, so that each test worker (each in
 * its namespace) can run its own app on its own port. Stored so that it survives a restart; a
 * reset leaves it (it is how payemu behaves, not data), as it leaves webhook chaos.
 */
export interface WebhookDestinationRecord {
  /** The Source's slug: one destination a Source, both modes. */
  id: string;
  source: string;
  url: string;
}

/** Why `url` cannot be a webhook destination, or undefined when it can: the one rule of the control plane, the CLI and a snapshot import. */
export function destinationProblem(url: string): string | undefined {
  // The rule of every URL a user gives payemu (the config's webhook_url, --webhook-url).
  if (!isSafeUrl(url)) return 'The url field must be an absolute http:// or https:// URL.';
  const parsed = new URL(url);
  // A receiver's credentials would be kept in the store and shown in every attempt's log.
  if (parsed.username !== '' || parsed.password !== '') return 'The url field must not hold credentials (user:password@).';
  // A fragment is never sent: a URL with one does not say where the webhooks go.
  if (url.includes('#')) return 'The url field must not hold a fragment (#...).';
  return undefined;
}

/**
 * With `--strict-webhook-urls`, a destination whose host is a private or reserved address,
 * written as one, is refused at once (a host name is resolved when each attempt goes out, as
 * for the config's URLs: what it resolves to may change).
 */
export function strictDestinationProblem(url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) === 0 || isPublicAddress(host)) return undefined;
  return `The url field names ${host}, a private or reserved address, which --strict-webhook-urls refuses.`;
}

const destinationRecordSchema = recordSchema({ source: text, url: { type: 'string', maxLength: 2048 } });

export const WebhookDestinations = collection<WebhookDestinationRecord>('webhook_destinations', {}, undefined, destinationRecordSchema, (record) => {
  if (record.id !== record.source) return ['id', 'The id of a webhook destination is its Source (its source field).'];
  const problem = destinationProblem(record.url);
  return problem ? ['url', problem] : undefined;
});

declare module '../bus/bus.js' {
  interface BusEvents {
    /** A Source's own webhook destination was set or cleared (`url`: the one in force now, or null). */
    'webhook.destination': { source: string; url: string | null };
  }
}
