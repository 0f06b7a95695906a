import { scopeKey } from '../lib/scope-key.js';
import type { Scope } from './auth.js';
import { TooManyRequests } from './errors.js';

/**
 * A fixed 60-second window per Source and mode. Every /v1 response reports the
 * window in `X-RateLimit-*`; a 429 is given only where the Source enforces its limit.
 * Windows follow real time: the limit protects the process, not virtual-time behaviour.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** `X-RateLimit-Limit`'s value by limit: the same few strings on every answer. */
  private readonly limits = new Map<number, string>();

  constructor(
    private readonly realNow: () => number,
    private enforceAll = false,
  ) {}

  setEnforceAll(value: boolean): void {
    this.enforceAll = value;
  }

  /** Counts one request; returns the headers to send (`[name, value, ...]`), or throws 429 with them. */
  take(scope: Scope): string[] {
    const limit = scope.source.rate_limit_per_minute;
    const key = scopeKey(scope.source.slug, scope.mode);
    const now = this.realNow();
    let window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) this.windows.set(key, (window = { start: now, count: 0 }));
    const enforced = this.enforceAll || scope.source.enforce_rate_limit;
    if (enforced && window.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
      const error = new TooManyRequests(retryAfter, limit);
      Object.assign(error.headers, { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0' });
      throw error;
    }
    window.count++;
    let limitText = this.limits.get(limit);
    if (limitText === undefined) this.limits.set(limit, (limitText = String(limit)));
    return ['X-RateLimit-Limit', limitText, 'X-RateLimit-Remaining', String(Math.max(0, limit - window.count))];
  }

  /** The headers of a request refused before it could be counted (a namespace not made: `--max-namespaces`): a window untouched. */
  untouched(scope: Scope): string[] {
    const limit = String(scope.source.rate_limit_per_minute);
    return ['X-RateLimit-Limit', limit, 'X-RateLimit-Remaining', limit];
  }
}
