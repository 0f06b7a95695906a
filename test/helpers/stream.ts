/**
 * Reads a server-sent event stream as it comes: `until(pattern)` resolves once the text received
 * so far matches (or the stream ends); `text()` is all of it.
 */
export function streamReader(res: Response): { until(pattern: RegExp): Promise<void>; text(): string } {
  const reader = res.body!.getReader();
  let text = '';
  return {
    async until(pattern) {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
      }
    },
    text: () => text,
  };
}
