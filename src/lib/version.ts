import { readFileSync } from 'node:fs';

/**
 * payemu's version, from its package.json: two folders up from src/lib/, dist/lib/ and the CLI's
 * bundle in dist/bin/ alike. '0.0.0' when it cannot be read.
 */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
