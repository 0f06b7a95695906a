/**
 * TypeScript types of what the API answers and what webhooks carry, for users' own code and
 * tests. Amounts in API answers are two-decimal strings (sessions: numbers); in webhook
 * payloads, numbers. Timestamps are ISO 8601 UTC with microseconds; dates YYYY-MM-DD.
 */
import type { EventName } from './bus/events.js';

export interface Resource<Type extends string, Attributes> {
  id: string;
  type: Type;
  attributes: Attributes;
  /** With `include` (or a relationship named in `fields[<type>]`): `{refunds: {data: [{type, id}]}}`. */
  relationships?: Record<string, { data: { type: string; id: string }[] }>;
  links?: Record<string, string>;
}

export interface Document<R> {
  data: R;
  meta?: Record<string, unknown>;
  included?: Resource<string, unknown>[];
}

export interface ListDocument<R> {
  data: R[];
  included?: Resource<string, unknown>[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; last_page: number; per_page: number; total: number };
}

export interface ErrorDocument {
  errors: { status: string; title: string; detail: string; meta?: { errors?: Record<string, string[]> } }[];
}

export type PaymentStatus = 'PAID' | 'FAILED' | 'AUTHORIZED' | 'VOIDED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'EXPIRED';
export type CardBrand = 'visa' | 'mastercard' | 'amex';
export type FailureCode = 'insufficient_funds' | 'card_declined' | 'expired_card' | 'incorrect_cvc' | 'authentication_failed' | 'card_not_supported';

export interface SessionAttributes {
  amount: number;
  currency: string;
  reference: string;
  checkout_url: string;
  expires_at: string;
  status?: 'open' | 'complete' | 'expired';
  payment_status?: 'unpaid' | 'paid' | 'authorized' | 'failed';
  success_url?: string | null;
  cancel_url?: string | null;
  customer_email?: string | null;
  capture_method?: 'automatic' | 'manual';
  created_at?: string;
}

export interface PaymentAttributes {
  reference: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  paid: boolean;
  provider: 'payemu';
  customer_email: string | null;
  card_last: string | null;
  card_brand: CardBrand | null;
  payment_method?: string;
  capture_method: 'automatic' | 'manual';
  description: string | null;
  metadata: Record<string, unknown>;
  failure_code: FailureCode | null;
  failure_message: string | null;
  captured_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RefundAttributes {
  amount: string;
  reason: string | null;
  status: 'completed';
  created_at: string;
}

export interface RecurringAttributes {
  reference: string;
  amount: string;
  currency: string;
  frequency: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval_count: number;
  status: 'active' | 'paused' | 'suspended' | 'cancelled' | 'completed';
  next_billing_date: string | null;
  retry_count: number;
  manage_url: string;
  payment_method: string;
  start_date: string;
  end_date: string | null;
  customer_email: string | null;
  customer_name: string | null;
  metadata: Record<string, unknown>;
  apply_tax: boolean;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChargeAttributes {
  reference: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  paid: boolean;
  payment_method: string | null;
  failure_code: FailureCode | null;
  failure_message: string | null;
  payment_id: number;
  created_at: string;
}

export interface InvoiceAttributes {
  number: string;
  status: 'draft' | 'sent' | 'paid' | 'overdue';
  customer_name: string;
  customer_email: string;
  customer_address: string | null;
  currency: string;
  due_date: string;
  notes: string | null;
  terms: string | null;
  apply_tax: boolean;
  metadata: Record<string, unknown>;
  items: { description: string; quantity: number; unit_price: string; amount: string }[];
  subtotal: string;
  discount: string;
  tax_rate: number;
  tax_amount: string;
  total: string;
  payment_url: string;
  payment_id: number | null;
  sent_at: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinkAttributes {
  url: string;
  title: string;
  description: string | null;
  type: 'one_time' | 'limited' | 'unlimited' | 'recurring';
  amount: string;
  currency: string;
  active: boolean;
  usable: boolean;
  uses_count: number;
  max_uses: number | null;
  expires_at: string | null;
  taxable: boolean;
  recurring: { frequency: 'daily' | 'weekly' | 'monthly' | 'yearly'; interval_count: number | null; end_date: string | null } | null;
  products: { id: number; name: string; quantity: number; unit_price: string; amount: string }[];
  metadata: Record<string, unknown>;
  success_url: string | null;
  cancel_url: string | null;
  test: boolean;
  created_at: string;
  updated_at: string;
}

export interface AccountAttributes {
  name: string;
  slug: string;
  mode: 'test' | 'live';
  default_currency: string;
  rate_limit_per_minute: number;
  ip_whitelisting_enabled: boolean;
  webhook_configured: boolean;
}

/** `data` of every `payment.*` webhook (docs/webhooks.md). */
export interface PaymentEventData {
  payment_id: number;
  reference: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  card_last: string | null;
  card_brand: CardBrand | null;
  metadata: Record<string, unknown>;
  failure_code?: FailureCode | null;
  failure_message?: string | null;
  authorized_amount?: number;
  refund_id?: string;
  refund_amount?: number;
  total_refunded?: number;
  refundable_amount?: number;
  reason?: string | null;
}

/** `data` of every `recurring.*` webhook. */
export interface RecurringEventData {
  reference: string;
  amount: number;
  currency: string;
  status: RecurringAttributes['status'];
  frequency: RecurringAttributes['frequency'];
  interval_count: number;
  next_billing_date: string | null;
  retry_count: number;
  customer_email: string | null;
  metadata: Record<string, unknown>;
  payment_reference?: string;
  payment_id?: number;
  failure_code?: FailureCode | null;
  failure_message?: string | null;
  cancelled_at?: string;
  changed?: string[];
  payment_method?: string;
  card_brand?: CardBrand;
  card_last?: string;
}

/** `data` of every `invoice.*` webhook. */
export interface InvoiceEventData {
  invoice_id: string;
  /** The invoice id again: the reference the invoice's payment gets. */
  reference: string;
  number: string;
  status: InvoiceAttributes['status'];
  customer_email: string;
  customer_name: string;
  currency: string;
  subtotal: number;
  discount: number;
  tax_amount: number;
  total: number;
  due_date: string;
  metadata: Record<string, unknown>;
  sent_at?: string;
  paid_at?: string;
  payment_id?: number;
  payment_reference?: string;
}

/** A webhook body: `{event, data}`. */
export type WebhookEvent =
  | { event: Extract<EventName, `payment.${string}`>; data: PaymentEventData }
  | { event: Extract<EventName, `recurring.${string}`>; data: RecurringEventData }
  | { event: Extract<EventName, `invoice.${string}`>; data: InvoiceEventData };
