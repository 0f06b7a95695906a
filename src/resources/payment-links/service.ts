import { parseTimestamp, startOfDay } from '../../clock/format.js';
import type { Scope } from '../../http/auth.js';
import { NotFound, Unprocessable } from '../../http/errors.js';
import { toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { nextCounter } from '../meta/records.js';
import { calculateTax } from '../tax/calculate.js';
import { isUsable, linkPrice, PaymentLinks, type LinkProduct, type PaymentLinkRecord } from './records.js';
import type { CreateLinkBody, UpdateLinkBody } from './schemas.js';

export function getLink(reader: Pick<Transaction, 'get'>, scope: Scope, id: string): PaymentLinkRecord {
  const link = /^\d+$/.test(id) ? reader.get(PaymentLinks, String(Number(id))) : undefined;
  if (!link || link.source !== scope.source.slug || link.mode !== scope.mode) throw new NotFound(`No payment link with id "${id}".`);
  return link;
}

function expiresAt(text: string, now: number): number {
  const at = parseTimestamp(text);
  if (at === undefined) throw Unprocessable.field('expires_at', 'The expires_at field must be an ISO 8601 date.');
  if (at <= now) throw Unprocessable.field('expires_at', 'The expires_at field must be a date after now.');
  return at;
}

function recurringOf(value: NonNullable<CreateLinkBody['recurring']>, now: number): PaymentLinkRecord['recurring'] {
  let end: number | null = null;
  if (value.end_date) {
    end = parseTimestamp(value.end_date)!;
    if (end <= startOfDay(now)) throw Unprocessable.field('recurring.end_date', 'The recurring.end_date field must be a date after today.');
  }
  return { frequency: value.frequency, interval_count: value.interval_count ?? null, end_date: end };
}

/** Catalogue products of the Source, in the link's currency (an unknown id is a 422 naming the item). */
function productsOf(scope: Scope, items: NonNullable<CreateLinkBody['products']>, currency: string): LinkProduct[] {
  return items.map((item, i) => {
    const product = scope.source.products.find((p) => p.id === item.id);
    if (!product)
      throw Unprocessable.field(`products.${i}.id`, `The products.${i}.id field must be the id of a product in the catalogue (no product ${item.id}).`);
    if (product.currency.toUpperCase() !== currency) {
      throw Unprocessable.field(
        `products.${i}.id`,
        `Product ${item.id} (${product.name}) is priced in ${product.currency}, not in the link's currency ${currency}.`,
      );
    }
    return { id: product.id, quantity: item.quantity ?? 1, name: product.name, unit_price: toMinor(product.price) };
  });
}

export function createLink(tx: Transaction, scope: Scope, body: CreateLinkBody, now: number): PaymentLinkRecord {
  // Either amount or products: the request schema refused any other body (schemas.ts).
  const hasAmount = body.amount !== undefined && body.amount !== null;
  const currency = (body.currency ?? scope.source.currency).toUpperCase();
  const link: PaymentLinkRecord = {
    id: String(nextCounter(tx, 'payment_links')),
    source: scope.source.slug,
    mode: scope.mode,
    title: body.title,
    description: body.description ?? null,
    amount: hasAmount ? toMinor(body.amount!) : null,
    currency,
    success_url: body.success_url ?? null,
    cancel_url: body.cancel_url ?? null,
    max_uses: body.max_uses ?? null,
    expires_at: body.expires_at ? expiresAt(body.expires_at, now) : null,
    taxable: body.taxable ?? false,
    recurring: body.recurring ? recurringOf(body.recurring, now) : null,
    metadata: body.metadata ?? {},
    products: body.products ? productsOf(scope, body.products, currency) : [],
    active: true,
    uses_count: 0,
    created_at: now,
    updated_at: now,
  };
  if (linkPrice(link) > 99_999_999) throw Unprocessable.field('products', 'The products add up to more than 999999.99.');
  return tx.put(PaymentLinks, link);
}

/**
 * PATCH: send only what changes. Turning a used-up or expired link back on is a 422 unless the
 * same PATCH raises `max_uses` or moves `expires_at`.
 */
export function updateLink(tx: Transaction, scope: Scope, id: string, body: UpdateLinkBody, now: number): PaymentLinkRecord {
  const link = getLink(tx, scope, id);
  const next: PaymentLinkRecord = { ...link, updated_at: now };
  if (body.title !== undefined) next.title = body.title;
  if (body.description !== undefined) next.description = body.description;
  if (body.amount !== undefined) {
    if (body.amount === null && link.products.length === 0) throw Unprocessable.field('amount', 'The amount field is required when the link has no products.');
    if (body.amount !== null && link.products.length > 0) throw Unprocessable.field('amount', 'This link sells products: its amount is their sum.');
    next.amount = body.amount === null ? null : toMinor(body.amount);
  }
  if (body.success_url !== undefined) next.success_url = body.success_url;
  if (body.cancel_url !== undefined) next.cancel_url = body.cancel_url;
  if (body.max_uses !== undefined) next.max_uses = body.max_uses;
  if (body.expires_at !== undefined) next.expires_at = body.expires_at === null ? null : expiresAt(body.expires_at, now);
  if (body.taxable !== undefined) next.taxable = body.taxable ?? false;
  if (body.recurring !== undefined) next.recurring = body.recurring === null ? null : recurringOf(body.recurring, now);
  if (body.metadata !== undefined) next.metadata = body.metadata;
  if (body.active !== undefined) next.active = body.active;
  if (body.active === true && !isUsable(next, now)) {
    throw Unprocessable.field('active', 'This link is used up or expired: raise max_uses or move expires_at in the same request to turn it on again.');
  }
  // Lowering max_uses to what was used, or moving expires_at into the past, turns it off.
  if (!isUsable({ ...next, active: true }, now)) next.active = false;
  return tx.put(PaymentLinks, next);
}

/** What the customer pays: the price, plus the team's tax on top when the link is taxable. */
export function linkTotal(link: PaymentLinkRecord, scope: Scope): number {
  const price = linkPrice(link);
  const tax = scope.source.tax;
  return link.taxable && tax.enabled ? calculateTax(price, tax.rate, false).total : price;
}
