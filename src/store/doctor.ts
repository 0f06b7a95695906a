import fs from 'node:fs';
import path from 'node:path';
import { MissingBase } from './collection.js';
import { decodeLine, isRecord, listSegments, segmentPath, snapshotPath, type Damage } from './files.js';
import { readLines } from './lines.js';
import { namespaceDir, namespaceEntries, type NamespaceEntries } from './namespace-dirs.js';
import { checkSnapshot, snapshotDb, snapshotSyntaxDamage, type Snapshot } from './snapshot-file.js';

/**
 * `payemu doctor` (src/cli/doctor.ts): checks a data directory's files as a start reads them,
 * but reads on past damage to find all of it, and repairs: every readable record is kept, each
 * damaged file is set aside whole (`journal-000003.ndjson.damaged-1`) and replaced by what
 * could be read of it. A data directory's named namespaces (`namespaces/NAME`) are checked and
 * repaired alike, each on its own. The caller makes sure no payemu holds the directory meanwhile.
 */

/** Something wrong in a file, with the start of what is lost (a journal line) for a human. */
export interface Finding extends Damage {
  excerpt?: string;
}

/** One store directory's check: the data directory's own files, or a named namespace's. */
export interface DirCheckup {
  dir: string;
  /** No damage: payemu starts on it. */
  healthy: boolean;
  /** Each of these stops a start. */
  damage: Finding[];
  /** Not damage: an unfinished last write (a crash while writing), which a start drops. */
  notes: Finding[];
  /** The files a start reads: snapshot records, journal lines (readable ones). */
  files: { file: string; records?: number; lines?: number }[];
  /** Records a start would have, damage left out. */
  records: number;
}

/**
 * A data directory's check: its own files, and each named namespace's directory in it
 * (`DATA/namespaces/NAME`), checked alike. `healthy` is the whole: a start reads every namespace
 * back, so damage in one stops it. `notes` name what a crash or a hand left in `namespaces/`.
 */
export interface Checkup extends DirCheckup {
  namespaces: (DirCheckup & { name: string })[];
}

export interface DirRepair extends DirCheckup {
  /** Each damaged file, and the name its original was kept under. */
  backups: { file: string; backup: string }[];
  /** What the repaired store no longer has: the damage found. */
  dropped: Finding[];
}

export interface Repair extends DirRepair {
  namespaces: (DirRepair & { name: string })[];
}

const EXCERPT = 120;

/** What a check found, and what a repair would write. */
interface Examination extends DirCheckup {
  /** The snapshot with its damaged parts left out; `rewrite` when the file must be replaced. */
  snapshot: { data: Snapshot; rewrite: boolean };
  /** Segments with damage (the newest one's unfinished last write is not damage). */
  damagedSegments: number[];
  /** Lines of a segment that decode but cannot be replayed (laid over a record nothing holds). */
  unreadable: Map<number, Set<number>>;
}

export async function checkStore(dir: string): Promise<Checkup> {
  const entries = namespaceEntries(dir);
  const own = checkupOf(examine(dir));
  const namespaces = entries.kept.map((name) => ({ name, ...checkupOf(examine(namespaceDir(dir, name))) }));
  return { ...own, healthy: own.healthy && namespaces.every((n) => n.healthy), notes: [...own.notes, ...leftovers(entries)], namespaces };
}

/**
 * Keeps every readable record: each damaged segment is rewritten with its readable lines (in
 * order), a damaged snapshot with its readable records. The original is linked to its backup
 * name before the repaired file is renamed over it, so at any moment the original exists under
 * one name or the other; a repair cut short is done again by running it again.
 */
export async function repairStore(dir: string): Promise<Repair> {
  const entries = namespaceEntries(dir);
  const own = await repairDir(dir);
  const namespaces: Repair['namespaces'] = [];
  for (const name of entries.kept) namespaces.push({ name, ...(await repairDir(namespaceDir(dir, name))) });
  return { ...own, notes: [...own.notes, ...leftovers(entries)], namespaces };
}

/** What a start would do with the entries of `namespaces/` that are no namespace it reads: notes, not damage. */
function leftovers(entries: NamespaceEntries): Finding[] {
  const at = (entry: string) => `namespaces/${entry}`;
  return [
    ...entries.unborn.map((name) => ({ file: at(name), problem: 'holds no whole journal line (made for a first request never answered): a start removes it' })),
    ...entries.dropped.map((entry) => ({ file: at(entry), problem: 'is a deleted namespace not removed yet: a start removes it' })),
    ...entries.strays.map(({ entry, why }) => ({ file: at(entry), problem: `is ${why}: no key selects it, payemu leaves it alone` })),
  ];
}

async function repairDir(dir: string): Promise<DirRepair> {
  const found = examine(dir);
  const backups: DirRepair['backups'] = [];
  for (const n of found.damagedSegments) {
    const file = segmentPath(dir, n);
    const temp = `${file}.repair.tmp`;
    writeReadableLines(file, temp, found.unreadable.get(n));
    backups.push({ file: path.basename(file), backup: path.basename(setAside(file)) });
    fs.renameSync(temp, file);
  }
  if (found.snapshot.rewrite) {
    const file = snapshotPath(dir);
    const backup = fs.existsSync(file) ? setAside(file) : undefined;
    const db = snapshotDb(dir);
    db.data = found.snapshot.data;
    await db.write(); // lowdb writes a temporary file and renames it
    if (backup) backups.push({ file: path.basename(file), backup: path.basename(backup) });
  }
  const after = examine(dir);
  if (!after.healthy) throw new Error(`the repair left damage: ${after.damage.map((d) => `${d.file} ${d.problem}`).join('; ')}`);
  return { ...checkupOf(after), notes: found.notes, backups, dropped: found.damage };
}

function examine(dir: string): Examination {
  const damage: Finding[] = [];
  const notes: Finding[] = [];
  const files: DirCheckup['files'] = [];
  const records = new Map<string, Set<string>>();
  const put = (collection: string, id: string, present: boolean) => {
    let ids = records.get(collection);
    if (!ids) records.set(collection, (ids = new Set()));
    if (present) ids.add(id);
    else ids.delete(id);
  };

  const snapshot = readSnapshotLeniently(dir, damage);
  if (fs.existsSync(snapshotPath(dir))) {
    let count = 0;
    for (const [collection, list] of Object.entries(snapshot.data.collections)) {
      for (const record of list) put(collection, record.id, true);
      count += list.length;
    }
    files.push({ file: 'snapshot.json', records: count });
  }

  const segments = listSegments(dir).filter((n) => n > snapshot.data.covers);
  const damagedSegments: number[] = [];
  /** Lines that decode but cannot be replayed, by segment. */
  const unreadable = new Map<number, Set<number>>();
  segments.forEach((n, i) => {
    const file = segmentPath(dir, n);
    const name = path.basename(file);
    const before = damage.length;
    let lines = 0;
    const { tail } = readLines(file, (text, line, offset) => {
      let changes: ReturnType<typeof decodeLine>;
      try {
        changes = decodeLine(text);
      } catch (error) {
        damage.push({ file: name, line, offset, problem: (error as Error).message, excerpt: text.slice(0, EXCERPT) });
        return;
      }
      // A line laid over a record nothing before holds cannot be replayed: dropped by a repair.
      const orphan = changes.find((change) => change.removed && !records.get(change.collection)?.has(change.id));
      if (orphan) {
        damage.push({ file: name, line, offset, problem: new MissingBase(orphan).message, excerpt: text.slice(0, EXCERPT) });
        (unreadable.get(n) ?? unreadable.set(n, new Set()).get(n)!).add(line);
        return;
      }
      lines++;
      for (const change of changes) put(change.collection, change.id, change.record !== null);
    });
    if (tail) {
      const finding = { file: name, line: tail.line, offset: tail.offset, excerpt: tail.start.slice(0, EXCERPT) };
      // Only the newest segment can end in the middle of a write (a crash); an older one was
      // closed whole when it was rotated, so cut short it lost answered writes.
      if (i === segments.length - 1) notes.push({ ...finding, problem: 'is an unfinished last write (a crash while writing it): start drops it' });
      else damage.push({ ...finding, problem: 'is cut short' });
    }
    files.push({ file: name, lines });
    if (damage.length > before) damagedSegments.push(n);
  });

  let count = 0;
  for (const ids of records.values()) count += ids.size;
  return { dir, healthy: damage.length === 0, damage, notes, files, records: count, snapshot, damagedSegments, unreadable };
}

function checkupOf({ dir, healthy, damage, notes, files, records }: Examination): DirCheckup {
  return { dir, healthy, damage, notes, files, records };
}

/** The snapshot's readable part; what is not readable goes into `damage`. */
function readSnapshotLeniently(dir: string, damage: Finding[]): Examination['snapshot'] {
  const empty = (): Snapshot => ({ version: 1, covers: 0, collections: {} });
  let text: string;
  try {
    text = fs.readFileSync(snapshotPath(dir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: empty(), rewrite: false };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Nothing of it can be read. Covers is unknown too: every segment still there is replayed
    // (older ones, left by a compaction cut short, only hold earlier versions of records).
    const found = snapshotSyntaxDamage(error as SyntaxError);
    damage.push({ ...found, problem: `${found.problem}: none of its records can be read` });
    return { data: empty(), rewrite: true };
  }
  if (!parsed) return { data: empty(), rewrite: false }; // lowdb reads `null` as "no data yet", so does a start
  const problems = checkSnapshot(parsed);
  if (problems.length === 0) return { data: parsed as Snapshot, rewrite: false };
  const data = empty();
  const source = parsed as { covers?: unknown; collections?: Record<string, unknown> };
  const dropAll = problems.some((p) => p.drop === 'all');
  if (!problems.some((p) => p.drop === 'covers') && !dropAll) data.covers = source.covers as number;
  if (!dropAll) {
    for (const [name, list] of Object.entries(source.collections!)) {
      if (Array.isArray(list)) data.collections[name] = list.filter(isRecord);
    }
  }
  for (const problem of problems) damage.push(problem.damage);
  return { data, rewrite: true };
}

/** Copies the lines of `file` that decode, but those in `skip`, into `temp`, in order, and flushes it to disk. */
function writeReadableLines(file: string, temp: string, skip: ReadonlySet<number> | undefined): void {
  const fd = fs.openSync(temp, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      const buffer = Buffer.from(pending.join(''));
      for (let written = 0; written < buffer.length; ) written += fs.writeSync(fd, buffer, written);
      pending = [];
      size = 0;
    };
    readLines(file, (text, line) => {
      if (skip?.has(line)) return;
      try {
        decodeLine(text);
      } catch {
        return;
      }
      pending.push(`${text}\n`);
      size += text.length + 1;
      if (size > 1024 * 1024) flush();
    });
    flush();
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Links `file` to the first free `<file>.damaged-N` name; returns that name. */
function setAside(file: string): string {
  for (let n = 1; ; n++) {
    const backup = `${file}.damaged-${n}`;
    try {
      fs.linkSync(file, backup);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
