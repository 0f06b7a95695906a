import { render } from 'ink';
import { wallClock } from '../clock/clock.js';
import { parseTimestamp } from '../clock/format.js';
import type { UiHost } from './host.js';
import { App } from './app.js';
import { httpControl } from './control.js';
import { createUiStore } from './store.js';

// The alternate screen: the live view takes the whole terminal, like top or less, and on exit the
// shell's scrollback comes back as it was.
const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[H';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';

/**
 * Shows the terminal UI of `payemu start` (imported only on a TTY, so plain runs never load Ink
 * or React). It reads the emulator's public face only: url, Sources, clock and the bus; its keys
 * act through the HTTP control plane. Returns `stop`, which restores the terminal.
 */
export function startTerminalUi(emulator: UiHost, options: { frozen: boolean; onQuit(): void }): { stop(): void } {
  const store = createUiStore(emulator.bus, {
    sources: emulator.sources.map((s) => s.slug),
    webhookUrl: (slug) => emulator.webhookUrl(slug),
    timers: emulator.timers,
    eventNames: emulator.eventNames,
  });
  const clock = () => {
    const now = parseTimestamp(emulator.clock.now()) ?? 0;
    return { now, offsetMs: now - wallClock.now(), frozen: options.frozen };
  };
  process.stdout.write(ENTER_ALT_SCREEN);
  const instance = render(
    <App
      store={store}
      control={httpControl(emulator.url, emulator.sources)}
      url={emulator.url}
      sources={emulator.sources}
      clock={clock}
      onQuit={options.onQuit}
      timers={emulator.timers}
    />,
    // Ctrl+C arrives as a key in raw mode: the App stops payemu cleanly, as SIGINT does.
    { exitOnCtrlC: false },
  );
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      instance.unmount();
      store.close();
      process.stdout.write(LEAVE_ALT_SCREEN);
    },
  };
}
