/**
 * A path segment for a URL payemu builds from stored text (a payment's reference). Total: a
 * string that is not well-formed Unicode (only records stored before such strings were refused
 * can hold one) is encoded with U+FFFD in place of the lone surrogate instead of throwing, so no
 * stored record can make a read fail.
 */
export function urlSegment(text: string): string {
  return encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed());
}
