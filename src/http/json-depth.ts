/**
 * How deep JSON text nests, read from the text itself: a scan of its brackets outside strings,
 * with no recursion, so text of any depth is safe to measure (JSON.parse of it is not always,
 * and what walks the parsed value afterwards, JSON.stringify included, is not).
 */

/**
 * From `from`, where the text stands `depth` levels deep, the index of the first bracket outside
 * strings after which `stop(depth, opens)` holds (`depth` as that bracket leaves it); -1 if none.
 */
function scanBrackets(text: string, from: number, depth: number, stop: (depth: number, opens: boolean) => boolean): number {
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (stop(++depth, true)) return i;
    } else if (c === 0x7d || c === 0x5d) {
      if (stop(--depth, false)) return i;
    }
  }
  return -1;
}

/** Whether brackets outside strings open more than `limit` levels. */
export function nestedDeeperThan(text: string, limit: number): boolean {
  return scanBrackets(text, 0, 0, (depth, opens) => opens && depth > limit) !== -1;
}

/**
 * The text with each object or array that opens deeper than `limit` levels replaced by
 * `replacement` (JSON text); undefined when nothing is that deep. Text that is not JSON gives
 * text that is not JSON either.
 */
export function cutDeeperThan(text: string, limit: number, replacement: string): string | undefined {
  // Valid JSON needs two characters a level, and a level one `{` or `[`: text shorter than that,
  // or with no more of them in all (most bodies: a native search), is never too deep.
  if (text.length <= 2 * limit + 1 || !moreOpenings(text, limit)) return undefined;
  const deeper = (depth: number, opens: boolean) => opens && depth > limit;
  let parts: string[] | undefined;
  let from = 0;
  // After a cut the scan goes on `limit` levels deep: where the value cut opened.
  for (let at = scanBrackets(text, 0, 0, deeper); at !== -1; at = scanBrackets(text, from, limit, deeper)) {
    (parts ??= []).push(text.slice(from, at), replacement);
    const end = scanBrackets(text, at + 1, 1, (depth) => depth === 0);
    from = end === -1 ? text.length : end + 1;
  }
  if (parts === undefined) return undefined;
  parts.push(text.slice(from));
  return parts.join('');
}

/** Whether `text` holds more than `limit` `{` and `[` in all (in strings too). */
export function moreOpenings(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > limit) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > limit) return true;
  return false;
}
