import { formatTimestamp } from '../../clock/format.js';
import type { ResourceShape } from '../../http/document-query.js';
import { minorToNumber } from '../../lib/money.js';
import { attributeNames } from '../../schemas/wire.js';
import { sessionAttributes, type CreatedSessionDocument, type SessionDocument } from './wire.js';
import { sessionStatus, type SessionRecord } from './records.js';

export const checkoutUrl = (base: string, session: SessionRecord) => `${base}/checkout/${session.id}`;

/** The creation answer: exactly the hosted API's five attributes (`amount` is a number there). */
export function presentCreatedSession(session: SessionRecord, base: string): CreatedSessionDocument {
  return sessionDocument(session, base, (checkout) => ({
    amount: minorToNumber(session.amount),
    currency: session.currency,
    reference: session.reference,
    checkout_url: checkout,
    expires_at: formatTimestamp(session.expires_at),
  }));
}

/** A session answer: `attributes` (given the checkout URL) with the session's id, type and links. */
function sessionDocument<A>(session: SessionRecord, base: string, attributes: (checkout: string) => A) {
  const checkout = checkoutUrl(base, session);
  return {
    data: { id: session.id, type: 'sessions' as const, attributes: attributes(checkout), links: { self: `${base}/v1/sessions/${session.id}`, checkout } },
  };
}

/** Type `sessions` as `GET /v1/sessions/{id}` shows it: what `fields[sessions]` may name. */
export const sessionShape: ResourceShape = { type: 'sessions', attributes: attributeNames(sessionAttributes) };

/** `GET /v1/sessions/{id}`: the session's status and payment_status, plus the request's own fields. */
export function presentSession(session: SessionRecord, base: string, now: number): SessionDocument {
  const number = (minor: number | undefined) => (minor === undefined ? null : minorToNumber(minor));
  return sessionDocument(session, base, (checkout) => ({
    amount: minorToNumber(session.amount),
    currency: session.currency,
    reference: session.reference,
    status: sessionStatus(session, now),
    payment_status: session.payment_status,
    checkout_url: checkout,
    expires_at: formatTimestamp(session.expires_at),
    success_url: session.success_url ?? null,
    cancel_url: session.cancel_url ?? null,
    customer_email: session.customer_email ?? null,
    customer_name: session.customer_name ?? null,
    description: session.description ?? null,
    capture_method: session.capture_method,
    save_payment_method: session.save_payment_method,
    metadata: session.metadata ?? {},
    subtotal: number(session.subtotal),
    discount: number(session.discount),
    shipping: number(session.shipping),
    tax: session.tax
      ? { amount: minorToNumber(session.tax.amount), lines: (session.tax.lines ?? []).map((l) => ({ ...l, amount: minorToNumber(l.amount) })) }
      : null,
    created_at: formatTimestamp(session.created_at),
  }));
}
