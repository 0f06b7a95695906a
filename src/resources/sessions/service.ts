import type { Scope } from '../../http/auth.js';
import { Conflict, Gone, NotFound, Unprocessable } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { toMinor } from '../../lib/money.js';
import type { Transaction } from '../../store/store.js';
import { presentCard, type CardOutcome } from '../common/test-cards.js';
import { takeScriptedStep, withScriptedStep } from '../outcomes/service.js';
import { recordPayment } from '../payments/record.js';
import { assertLinkUsable, recordLinkUse } from '../payment-links/uses.js';
import type { PayemuConfig } from '../../config/types.js';
import { Payments, SETTLED_STATUSES, type PaymentRecord } from '../common/payment-records.js';
import { PaymentMethods } from '../payment-methods/records.js';
import { calculateTax } from '../tax/calculate.js';
import { referenceKey } from '../common/references.js';
import { SESSION_LIFETIME_MS, Sessions, sessionStatus, type SessionRecord } from './records.js';
import type { CreateSessionBody } from './schemas.js';

/**
 * The reference rules: one payment per reference; a reference whose
 * payment succeeded (or is held) is taken; a reference used by another Source of the merchant
 * in this mode is taken too, and the answer says nothing more about it.
 */
export function assertReferenceFree(tx: Transaction, scope: Scope, reference: string): void {
  const key = referenceKey(scope.mode, reference);
  const payment = tx.find(Payments, 'reference', key)[0];
  const otherSource = (payment && payment.source !== scope.source.slug) || tx.find(Sessions, 'reference', key).some((s) => s.source !== scope.source.slug);
  if (otherSource) throw new Conflict(`The reference "${reference}" is already used by another website of this merchant.`);
  if (payment && SETTLED_STATUSES.has(payment.status)) {
    throw new Conflict(`A payment with the reference "${reference}" already exists with status ${payment.status}; a new session cannot be created for it.`);
  }
}

export function createSession(
  tx: Transaction,
  scope: Scope,
  body: CreateSessionBody,
  now: number,
  extra: Pick<SessionRecord, 'payment_link_id'> = {},
): SessionRecord {
  const reference = body.reference ?? newId('pay_', 16);
  assertReferenceFree(tx, scope, reference);

  let amount = toMinor(body.amount);
  let tax = body.tax && {
    amount: toMinor(body.tax.amount),
    ...(body.tax.lines ? { lines: body.tax.lines.map((l) => ({ ...l, amount: toMinor(l.amount) })) } : {}),
  };
  let subtotal = body.subtotal === undefined ? undefined : toMinor(body.subtotal);
  if (body.apply_tax) {
    // apply_tax overrides `tax`; exclusive adds the tax, inclusive extracts it.
    const settings = scope.source.tax;
    const rate = settings.enabled ? settings.rate : 0;
    const result = calculateTax(amount, rate, settings.inclusive);
    amount = result.total;
    subtotal = result.net;
    tax = { amount: result.tax, lines: [{ name: settings.name, rate, amount: result.tax }] };
    if (amount > 99_999_999) throw Unprocessable.field('amount', 'The amount field with tax added must not be greater than 999999.99.');
  }

  const session: SessionRecord = {
    id: newId('cs_'),
    source: scope.source.slug,
    mode: scope.mode,
    reference,
    amount,
    currency: (body.currency ?? scope.source.currency).toUpperCase(),
    ...optional(body, ['description', 'success_url', 'cancel_url', 'customer_email', 'customer_name', 'metadata']),
    ...(subtotal !== undefined ? { subtotal } : {}),
    ...(body.discount !== undefined ? { discount: toMinor(body.discount) } : {}),
    ...(body.shipping !== undefined ? { shipping: toMinor(body.shipping) } : {}),
    ...(tax ? { tax } : {}),
    capture_method: body.capture_method ?? 'automatic',
    save_payment_method: body.save_payment_method ?? false,
    status: 'open',
    payment_status: 'unpaid',
    created_at: now,
    expires_at: now + SESSION_LIFETIME_MS,
    ...extra,
  };
  return tx.put(Sessions, session);
}

/** Finds a session of this Source and mode (another Source's session is a 404). */
export function getSession(reader: Pick<Transaction, 'get'>, scope: Scope | undefined, id: string): SessionRecord {
  const session = reader.get(Sessions, id);
  if (!session || (scope && (session.source !== scope.source.slug || session.mode !== scope.mode))) {
    throw new NotFound(`No session with id "${id}".`);
  }
  return session;
}

export interface Attempt {
  cardNumber: string;
  threeDs?: 'pass' | 'fail';
}

export interface AttemptResult {
  session: SessionRecord;
  payment: PaymentRecord;
  outcome: CardOutcome;
}

/**
 * A payment attempt on a checkout session, as the hosted page or the control plane makes it.
 * An approval completes the session (and expires the reference's other open sessions); a
 * decline records a FAILED payment and leaves the session open for another try.
 */
export function attemptPayment(tx: Transaction, sessionId: string, attempt: Attempt, now: number, config: PayemuConfig): AttemptResult {
  const session = getSession(tx, undefined, sessionId);
  const status = sessionStatus(session, now);
  if (status === 'expired') throw new Gone(`The session "${session.id}" has expired.`);
  if (status === 'complete') throw new Conflict(`The session "${session.id}" is already complete.`);

  const link = session.payment_link_id === undefined ? undefined : assertLinkUsable(tx, session.payment_link_id, now);
  // A 3-D Secure card asks for its challenge first (presentCard); a script then decides. A
  // link's checkout has a fresh reference each time: its attempts also match the link's id.
  const presented = presentCard(attempt.cardNumber, session.mode, attempt.threeDs);
  const step =
    takeScriptedStep(tx, session.source, session.mode, { reference: session.reference }) ??
    (link ? takeScriptedStep(tx, session.source, session.mode, { reference: link.id }) : undefined);
  const outcome = withScriptedStep(presented, step);

  const approved = outcome.outcome === 'approve';
  const method =
    approved && session.save_payment_method
      ? tx.put(PaymentMethods, {
          id: newId('pm_'),
          source: session.source,
          mode: session.mode,
          card_brand: outcome.brand!,
          card_last: outcome.last4,
          decline_off_session: outcome.outcome === 'approve' && outcome.declineOffSession,
          ...(session.customer_email ? { customer_email: session.customer_email } : {}),
          created_at: now,
        })
      : undefined;
  const payment = recordPayment(
    tx,
    {
      source: session.source,
      mode: session.mode,
      reference: session.reference,
      amount: session.amount,
      currency: session.currency,
      capture_method: session.capture_method,
      ...optional(session, ['description', 'customer_email', 'customer_name', 'metadata']),
      card_brand: outcome.brand,
      card_last: outcome.last4,
      ...(outcome.outcome === 'decline' ? { failure: { code: outcome.code, message: outcome.message } } : {}),
      payment_method: method?.id,
      origin: { session_id: session.id, ...(link ? { payment_link_id: link.id } : {}) },
    },
    now,
  );
  if (link && approved) recordLinkUse(tx, link, payment, config, now);
  if (!approved) {
    return { session: tx.put(Sessions, { ...session, payment_status: 'failed' }), payment, outcome };
  }
  const manual = session.capture_method === 'manual';
  const completed = tx.put(Sessions, { ...session, status: 'complete', payment_status: manual ? 'authorized' : 'paid', completed_at: now });
  for (const other of tx.find(Sessions, 'reference', referenceKey(session.mode, session.reference))) {
    if (other.id !== session.id && sessionStatus(other, now) === 'open') tx.put(Sessions, { ...other, status: 'expired' });
  }
  return { session: completed, payment, outcome };
}

function optional<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
