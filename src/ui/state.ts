import type { Heard } from '../bus/bus.js';
import { payloadAmount } from '../lib/money.js';
import { attemptState, attemptsOf, cycleAttempts, eventBody, referenceOf, type Attempt, type DeliveryStatus, type EventRecord } from '../webhooks/records.js';

/**
 * What the terminal UI shows, as a pure reducer: bus events and key presses are actions, the
 * state is a value. Every list is bounded, so hours of traffic keep memory flat and each render
 * cheap; the counters say how much was seen in all.
 */
export const LIMITS = { events: 200, requests: 100, notices: 3, attempts: 20 } as const;

export interface EventRow {
  id: string;
  name: string;
  source: string;
  mode: 'test' | 'live';
  /** The named namespace it was raised in; absent for the default one. */
  namespace?: string;
  /** Virtual time the event was raised (epoch ms). */
  at: number;
  reference: string | null;
  amount: number | null;
  currency: string | null;
  /** The webhook body, `{event, data}`. */
  payload: { event: string; data: Record<string, unknown> };
  delivery: DeliveryStatus;
  /** The latest attempts (at most LIMITS.attempts), oldest first. */
  attempts: Attempt[];
  /** Attempts of the current delivery cycle (a resend starts a new one). */
  cycleAttempts: number;
}

export interface RequestRow {
  id: number;
  method: string;
  path: string;
  status: number;
  ms: number;
  source?: string;
  mode?: string;
  /** The named namespace of the request's key; absent for the default one. */
  namespace?: string;
}

/** A Source's webhook endpoint and how its last delivery went (the UI never probes it). */
export interface Target {
  url: string | null;
  last: { ok: boolean; status: number | null; error: string | null } | null;
}

export interface Notice {
  id: number;
  text: string;
  tone: 'info' | 'error';
}

export type Screen = 'list' | 'detail' | 'trigger';

export interface UiState {
  /** Newest first. */
  events: EventRow[];
  /** Newest first. */
  requests: RequestRow[];
  /** How many of each were seen since start (the lists keep only the latest). */
  seen: { events: number; requests: number };
  /**
   * Whether a named namespace's event or request was seen: the lists then show a namespace
   * column (and keep it, so the layout does not jump as rows scroll away). Without namespaces
   * the lists are as they were.
   */
  namespaced: boolean;
  targets: Record<string, Target>;
  /** Newest last. */
  notices: Notice[];
  screen: Screen;
  /** The selected event's id; null follows nothing (Down selects the newest). */
  selected: string | null;
  /** The events the trigger menu offers, in the catalogue's order. */
  triggers: readonly string[];
  /** The highlighted line of the trigger menu (an index into `triggers`). */
  menuIndex: number;
  /** Lines of the open event's payload scrolled past. */
  scroll: number;
  /** Ids for requests and notices (React keys). */
  seq: number;
}

export type Action =
  | { type: 'request'; request: Heard<'request'> }
  | { type: 'domain'; event: Heard<'domain'> }
  | { type: 'attempt'; event: EventRecord; attempt: Attempt | null; namespace?: string }
  | { type: 'targets'; urls: Record<string, string | null> }
  | { type: 'notice'; text: string; tone?: Notice['tone'] }
  /** Moves the selection (list, detail) or the menu highlight (trigger) by `by` lines. */
  | { type: 'move'; by: number }
  /** Scrolls the open event's payload by `by` lines, to at most `max`. */
  | { type: 'scroll'; by: number; max: number }
  /** Opens the selected event. */
  | { type: 'open' }
  /** Back to the list. */
  | { type: 'back' }
  /** Opens the trigger menu. */
  | { type: 'menu' };

export function initialState(urls: Record<string, string | null> = {}, triggers: readonly string[] = []): UiState {
  return {
    events: [],
    requests: [],
    seen: { events: 0, requests: 0 },
    namespaced: false,
    targets: Object.fromEntries(Object.entries(urls).map(([slug, url]) => [slug, { url, last: null }])),
    notices: [],
    screen: 'list',
    selected: null,
    triggers,
    menuIndex: 0,
    scroll: 0,
    seq: 0,
  };
}

export function reduce(state: UiState, action: Action): UiState {
  switch (action.type) {
    case 'request': {
      const row = { id: state.seq + 1, ...action.request };
      return {
        ...state,
        seq: row.id,
        requests: bounded([row, ...state.requests], LIMITS.requests),
        seen: { ...state.seen, requests: state.seen.requests + 1 },
        namespaced: state.namespaced || row.namespace !== undefined,
      };
    }
    case 'domain': {
      if (state.events.some((e) => sameEvent(e, action.event.id, action.event.namespace))) return state;
      return withNewEvent(state, rowOfDomain(action.event));
    }
    case 'attempt':
      return attempted(state, action.event, action.attempt, action.namespace);
    case 'targets': {
      const targets: Record<string, Target> = {};
      for (const [slug, url] of Object.entries(action.urls)) {
        const before = state.targets[slug];
        // A new endpoint has not answered anything yet.
        targets[slug] = before && before.url === url ? before : { url, last: null };
      }
      return { ...state, targets };
    }
    case 'notice': {
      const notice = { id: state.seq + 1, text: action.text, tone: action.tone ?? 'info' };
      return { ...state, seq: notice.id, notices: [...state.notices, notice].slice(-LIMITS.notices) };
    }
    case 'move':
      return moved(state, action.by);
    case 'scroll':
      return state.screen === 'detail' ? { ...state, scroll: clamp(state.scroll + action.by, 0, action.max) } : state;
    case 'open':
      return state.screen === 'list' && state.selected !== null ? { ...state, screen: 'detail', scroll: 0 } : state;
    case 'back':
      return state.screen === 'list' ? state : { ...state, screen: 'list' };
    case 'menu':
      return { ...state, screen: 'trigger' };
  }
}

/** The selected event's row, if it is still kept. */
export function selectedEvent(state: UiState): EventRow | undefined {
  return state.selected === null ? undefined : state.events.find((e) => e.id === state.selected);
}

/** Event ids are random, so one is in one namespace only; the namespace is matched too all the same. */
const sameEvent = (row: EventRow, id: string, namespace: string | undefined) => row.id === id && row.namespace === namespace;

function rowOfDomain(event: Heard<'domain'>): EventRow {
  return {
    id: event.id,
    name: event.name,
    source: event.source,
    mode: event.mode,
    ...(event.namespace === undefined ? {} : { namespace: event.namespace }),
    at: event.at,
    ...summaryOf(event.data),
    payload: { event: event.name, data: event.data },
    delivery: 'pending',
    attempts: [],
    cycleAttempts: 0,
  };
}

function summaryOf(data: Record<string, unknown>): Pick<EventRow, 'reference' | 'amount' | 'currency'> {
  // Invoices carry `total` rather than `amount`.
  const worth = payloadAmount(data);
  return {
    reference: referenceOf(data),
    amount: worth?.amount ?? null,
    currency: worth ? worth.currency : typeof data.currency === 'string' ? data.currency : null,
  };
}

function attempted(state: UiState, record: EventRecord, attempt: Attempt | null, namespace: string | undefined): UiState {
  const delivery = {
    delivery: record.delivery_status,
    attempts: attemptsOf(record).slice(-LIMITS.attempts),
    cycleAttempts: cycleAttempts(record),
  };
  // An attempt still out, or cut off by a stop, says nothing yet of whether the endpoint answers.
  // The header's endpoints are the config's: a named namespace (which may send elsewhere) tells
  // of one only by an attempt that went to it.
  const settled =
    (attempt === null || attempt.state === undefined) && (namespace === undefined || (attempt !== null && attempt.url === state.targets[record.source]?.url));
  const targets = settled
    ? {
        ...state.targets,
        [record.source]: {
          url: attempt?.url ?? null,
          last: attempt && { ok: attemptState(attempt) === 'succeeded', status: attempt.status, error: attempt.error },
        },
      }
    : state.targets;
  const index = state.events.findIndex((e) => sameEvent(e, record.id, namespace));
  if (index >= 0) {
    const events = state.events.slice();
    events[index] = { ...events[index]!, ...delivery };
    return { ...state, events, targets };
  }
  // An event this UI did not see raised (a retry left pending by a previous run): show it now.
  const row: EventRow = {
    id: record.id,
    name: record.event,
    source: record.source,
    mode: record.mode,
    ...(namespace === undefined ? {} : { namespace }),
    at: record.created_at,
    ...summaryOf(record.data),
    payload: eventBody(record),
    ...delivery,
  };
  return withNewEvent({ ...state, targets }, row);
}

function withNewEvent(state: UiState, row: EventRow): UiState {
  let events = [row, ...state.events];
  if (events.length > LIMITS.events) {
    // The oldest row goes, unless it is the one selected (perhaps open): then the next oldest.
    const drop = events[events.length - 1]!.id === state.selected ? events.length - 2 : events.length - 1;
    events = events.filter((_, i) => i !== drop);
  }
  return { ...state, events, seen: { ...state.seen, events: state.seen.events + 1 }, namespaced: state.namespaced || row.namespace !== undefined };
}

function moved(state: UiState, by: number): UiState {
  if (state.screen === 'trigger') {
    return { ...state, menuIndex: clamp(state.menuIndex + by, 0, state.triggers.length - 1) };
  }
  if (state.events.length === 0) return state;
  const index = state.events.findIndex((e) => e.id === state.selected);
  // Nothing selected yet: either arrow starts at the newest event.
  const next = index < 0 ? 0 : clamp(index + by, 0, state.events.length - 1);
  return { ...state, selected: state.events[next]!.id, scroll: 0 };
}

function bounded<T>(list: T[], max: number): T[] {
  return list.length > max ? list.slice(0, max) : list;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
