/**
 * The colours of `payemu start`'s plain log lines. Plain text unless the log goes to a terminal
 * (see start.ts): chalk is then loaded for it, and only then. Loaded at every start it cost 5 ms
 * of an 84 ms start-up, half of it node:process (chalk imports it, and node builds an ES module
 * facade that reads every property of `process`), paid in CI and behind a pipe, where nothing is
 * coloured.
 */
export interface Palette {
  status(status: number): (text: string) => string;
  event(text: string): string;
  dim(text: string): string;
  error(text: string): string;
}

const plain = (text: string) => text;

export const plainPalette: Palette = { status: () => plain, event: plain, dim: plain, error: plain };

/** ANSI colours (16 of them: every terminal has those). */
export async function colourPalette(): Promise<Palette> {
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    status: (status) => (status >= 500 ? c.red : status >= 400 ? c.yellow : c.green),
    event: c.cyan,
    dim: c.dim,
    error: c.red,
  };
}
