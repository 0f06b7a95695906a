import type { FaultInput } from '../lib/faults.js';

/** The config as validated by config/schema.ts. Money in the catalogue is in major units. */
export interface TaxSettings {
  enabled: boolean;
  name: string;
  rate: number;
  inclusive: boolean;
}

export interface Product {
  id: number;
  name: string;
  price: number;
  currency: string;
}

export interface SourceConfig {
  slug: string;
  name: string;
  test_key: string;
  live_key: string;
  webhook_secret: string;
  currency: string;
  rate_limit_per_minute: number;
  enforce_rate_limit: boolean;
  ip_whitelist: string[];
  webhook_url: string | null;
  tax: TaxSettings;
  products: Product[];
  /** Faults on this Source's /v1 requests, in force from start (in test and live mode). */
  faults?: FaultInput[];
}

export interface PayemuConfig {
  merchant: { name: string };
  sources: SourceConfig[];
}

/** A key's mode (its home is src/lib/scope-key.ts, beside the scope it is half of). */
export type { Mode } from '../lib/scope-key.js';
