import { Box, useInput, useStdout } from 'ink';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Control } from './control.js';
import type { UiTimers } from './host.js';
import { showsDays } from './format.js';
import { shareRows } from './panes.js';
import { LIMITS, selectedEvent } from './state.js';
import type { UiStore } from './store.js';
import { detailLayout, EventDetail } from './views/detail.js';
import { EventList } from './views/events.js';
import { KeyHints, Notices } from './views/footer.js';
import { Header, type ClockView, type HeaderSource } from './views/header.js';
import { RequestLog } from './views/requests.js';
import { TriggerMenu } from './views/trigger-menu.js';

export interface AppProps {
  store: UiStore;
  /** What r, c and t do. */
  control: Control;
  url: string;
  sources: readonly HeaderSource[];
  /** Read on every redraw and once a second: the virtual clock moves with real time. */
  clock(): ClockView;
  /** q or Ctrl+C: stop payemu (called once). */
  onQuit(): void;
  /** Terminal size; default the output's (tests have none). */
  rows?: number;
  columns?: number;
  /** How often the header's clock redraws (default 1000 ms; 0: never). */
  tickMs?: number;
  timers: UiTimers;
}

/** The live view of `payemu start` on a terminal: header, events, requests, notices, keys. */
export function App(props: AppProps) {
  const { store, control } = props;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const size = useTerminalSize();
  useTick(props.timers, props.tickMs ?? 1000);
  const quitting = useRef(false);

  const rows = props.rows ?? size.rows;
  const width = props.columns ?? size.columns;
  // Fixed areas, so that nothing jumps as traffic comes in; the frame is one line short of the
  // screen, since a frame as tall as the terminal makes Ink clear it on each redraw (flicker).
  // Every line is one row (views cut their text to the width), so these heights are the frame's.
  // Besides the header: the blank line under it, the notices and the key line.
  const room = rows - 1 - 1 - LIMITS.notices - 1;
  // On a terminal too short for the Sources' lines and a body of 8 lines, the header keeps its
  // first two lines (where it runs, the clock).
  const compact = room - (2 + 2 * props.sources.length) < 8;
  const header = compact ? 2 : 2 + 2 * props.sources.length;
  const body = Math.max(4, room - header);
  // The lines left by the titles go to the two lists by what they hold (panes.ts); a terminal
  // too short for both lists shows the events only.
  const listRows = body - 4; // two panel titles, the column names, the blank line between
  const bothLists = listRows >= 4;
  const shared = shareRows(listRows, { events: state.events.length, requests: state.requests.length });
  const eventRows = bothLists ? shared.events : body - 2;
  const requestRows = bothLists ? shared.requests : 0;
  const clock = props.clock();
  // Times show their day once the virtual clock (or an event kept) is off the real day.
  const days = showsDays(clock, eventTimes(state.events));

  // A key's action finishes later; its result (or failure) lands in the notice bar.
  const run = (work: () => Promise<string | undefined>) => {
    work().then(
      (text) => text && store.dispatch({ type: 'notice', text }),
      (error: Error) => store.dispatch({ type: 'notice', tone: 'error', text: error.message }),
    );
  };

  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) {
      if (!quitting.current) props.onQuit();
      quitting.current = true;
      return;
    }
    const now = store.getState();
    const open = now.screen === 'detail' ? selectedEvent(now) : undefined;
    if (now.screen === 'trigger') {
      if (key.upArrow || key.downArrow) store.dispatch({ type: 'move', by: key.upArrow ? -1 : 1 });
      else if (key.escape || input === 't') store.dispatch({ type: 'back' });
      else if (key.return) {
        const name = now.triggers[now.menuIndex]!;
        store.dispatch({ type: 'back' });
        run(() => control.trigger(name));
      }
      return;
    }
    if (key.upArrow || key.downArrow) store.dispatch({ type: 'move', by: key.upArrow ? -1 : 1 });
    else if ((key.pageUp || key.pageDown) && open) {
      store.dispatch({ type: 'scroll', by: key.pageUp ? -10 : 10, max: detailLayout(open, body).maxScroll });
    } else if (key.return) store.dispatch({ type: now.screen === 'list' ? 'open' : 'back' });
    else if (key.escape || key.backspace || key.leftArrow) store.dispatch({ type: 'back' });
    else if (input === 'c') run(() => control.advanceClock());
    else if (input === 'd') store.dispatch({ type: 'notice', text: `dashboard: ${props.url}/_payemu/dashboard` });
    else if (input === 't') store.dispatch({ type: 'menu' });
    else if (input === 'r') {
      const event = selectedEvent(now);
      // Resending an event whose Source has no webhook URL would record it again, sent nowhere (a
      // named namespace may have a URL of its own: its server answers for it).
      if (event && event.namespace === undefined && now.targets[event.source]?.url === null)
        store.dispatch({ type: 'notice', tone: 'error', text: NO_DESTINATION });
      else if (event) run(() => control.resend(event));
      else store.dispatch({ type: 'notice', tone: 'error', text: 'select an event first (↑↓), then r resends it' });
    }
  });

  return (
    <Box flexDirection="column" width={width}>
      <Header url={props.url} sources={compact ? [] : props.sources} targets={state.targets} clock={clock} width={width} />
      <Box marginTop={1} flexDirection="column" height={body}>
        {state.screen === 'detail' ? (
          <EventDetail event={selectedEvent(state)} scroll={state.scroll} height={body} width={width} days={days} />
        ) : state.screen === 'trigger' ? (
          <TriggerMenu events={state.triggers} index={state.menuIndex} height={body} width={width} source={props.sources[0]?.slug ?? ''} />
        ) : (
          <>
            <Box height={eventRows + 2} flexDirection="column">
              <EventList
                events={state.events}
                seen={state.seen.events}
                selected={state.selected}
                height={eventRows}
                width={width}
                days={days}
                namespaced={state.namespaced}
              />
            </Box>
            {bothLists && (
              <Box marginTop={1}>
                <RequestLog requests={state.requests} seen={state.seen.requests} height={requestRows} width={width} namespaced={state.namespaced} />
              </Box>
            )}
          </>
        )}
      </Box>
      <Box height={LIMITS.notices} flexDirection="column" justifyContent="flex-end">
        <Notices notices={state.notices} width={width} />
      </Box>
      <KeyHints screen={state.screen} width={width} />
    </Box>
  );
}

/** What `r` says for an event whose Source has no webhook URL (it fits an 80-column line). */
export const NO_DESTINATION = 'not resent: the event has no destination (set webhook_url or --webhook-url)';

const eventTimes = (events: readonly { at: number }[]) => events.map((e) => e.at);

/** The output's size, redrawn when the terminal is resized. */
function useTerminalSize(): { rows: number; columns: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout]);
  return size;
}

function sizeOf(stdout: NodeJS.WriteStream): { rows: number; columns: number } {
  return { rows: stdout.rows || 30, columns: stdout.columns || 100 };
}

function useTick(timers: UiTimers, ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (ms <= 0) return;
    const timer = timers.every(ms, () => setTick((n) => n + 1));
    return () => timer.cancel();
  }, [timers, ms]);
}
