import { Box } from 'ink';
import { cell, fitColumns, namespaceText, namespaceWidth, requestTone, textWidth, type ColumnSpec } from '../format.js';
import type { RequestRow } from '../state.js';
import { Line, type Span, Title } from './line.js';

type Column = 'indent' | 'status' | 'method' | 'path' | 'ms' | 'source' | 'namespace';

/**
 * The columns that fit a terminal `width` wide. Status and path always stay, the path taking
 * what is left; on a narrower terminal the Source goes first, then the latency, then the method.
 * Once a named namespace's row was seen (`namespaced`), the namespace (`~w3`; blank for the
 * default) follows the Source, and goes after the latency.
 */
export function requestColumns(width: number, rows: readonly RequestRow[], namespaced = false): { key: Column; width: number }[] {
  // As wide as the widest Source in view, within bounds: the path matters more.
  const source = Math.min(width >= 120 ? 26 : 13, Math.max(10, ...rows.map((r) => textWidth(sourceText(r)) + 1)));
  const specs: ColumnSpec<Column>[] = [
    { key: 'indent', width: 2 },
    { key: 'status', width: 5 },
    { key: 'method', width: 7, drop: 3 },
    { key: 'path', width: 16, flex: true },
    { key: 'ms', width: 10, drop: 2 },
    { key: 'source', width: source, drop: 1 },
    ...(namespaced ? [{ key: 'namespace' as const, width: namespaceWidth(rows, width), drop: 2.5 }] : []),
  ];
  return fitColumns(width, specs);
}

/** The request log, newest first: status, method, path, latency, Source. */
export function RequestLog(props: { requests: readonly RequestRow[]; seen: number; height: number; width: number; namespaced?: boolean }) {
  const { width } = props;
  const visible = props.requests.slice(0, props.height);
  const columns = requestColumns(width, visible, props.namespaced);
  const kept = props.seen > props.requests.length ? `, latest ${props.requests.length} of ${props.seen}` : '';
  return (
    <Box flexDirection="column">
      <Title width={width} title="Requests" note={props.requests.length === 0 ? 'none yet' : `${props.requests.length}${kept}`} />
      {visible.map((r) => {
        const text: Record<Column, string> = {
          indent: '',
          status: String(r.status),
          method: r.method,
          path: r.path,
          ms: `${r.ms.toFixed(1)}ms`,
          source: sourceText(r),
          namespace: namespaceText(r),
        };
        const style = { status: requestTone(r.status), source: 'dim' } as const;
        const spans: Span[] = columns.map((c) => ({
          text: cell(text[c.key], c.width),
          ...(c.key === 'status' || c.key === 'source' ? { style: style[c.key] } : {}),
        }));
        return <Line key={r.id} width={width} spans={spans} />;
      })}
    </Box>
  );
}

const sourceText = (r: RequestRow) => (r.source ? `${r.source}/${r.mode}` : '');
