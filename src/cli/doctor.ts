import fs from 'node:fs';
import path from 'node:path';
import { checkStore, repairStore, type Checkup, type DirCheckup, type DirRepair, type Finding, type Repair } from '../store/doctor.js';
import { describeDamage, repairCommand } from '../store/files.js';
import { acquireLock, lockHolder } from '../store/lock.js';
import { dataDirOf, holdsPayemuData, namespaceHolder } from '../store/namespace-dirs.js';
import { CliError, EXIT } from './errors.js';
import { output, type Output } from './output.js';

export interface DoctorOptions {
  data: string;
  repair?: boolean;
  json?: boolean;
}

/**
 * `payemu doctor [--data DIR] [--repair]`: checks a stopped emulator's data directory (exit 0
 * healthy, 1 damaged) and with --repair keeps every readable record, setting each damaged file
 * aside. Wiring and printing only: the store work is in src/store/doctor.ts.
 */
export async function doctor(options: DoctorOptions): Promise<void> {
  const out = output(options);
  const dir = path.resolve(options.data);
  if (!fs.existsSync(dir)) throw new CliError(`${dir} does not exist: nothing to check`, EXIT.usage);
  if (!holdsPayemuData(dir)) throw new CliError(`${dir} does not look like a payemu data directory (no snapshot.json, no journal-*.ndjson)`, EXIT.usage);
  // The files are read while nothing writes them: not while a payemu runs on them. A named
  // namespace's directory (DATA/namespaces/NAME, which a start's damage message names) is held
  // by the payemu holding DATA.
  const holder = lockHolder(dir) ?? namespaceHolder(dir);
  if (holder)
    throw new CliError(
      `${dir} is in use by a running payemu (pid ${holder.pid})${holder.url ? ` at ${holder.url}` : ''}: stop it, then run doctor again`,
      EXIT.refused,
    );

  if (!options.repair) {
    const checkup = await checkStore(dir);
    out.result(checkup, () => report(checkup, out));
    if (!checkup.healthy) process.exitCode = EXIT.refused;
    return;
  }
  let release: () => void;
  try {
    release = acquireLock(dataDirOf(dir)); // and no payemu starts on it during the repair
  } catch (error) {
    throw new CliError((error as Error).message, EXIT.refused);
  }
  try {
    const repair = await repairStore(dir);
    out.result(repair, () => repaired(repair, out));
  } finally {
    release();
  }
}

function report(checkup: Checkup, out: Output): string {
  const lines = [`payemu doctor: ${checkup.dir}`, ...files(checkup, out, '  ')];
  for (const named of checkup.namespaces) lines.push(`  namespace ${named.name} (${named.dir}):`, ...files(named, out, '    '));
  for (const finding of checkup.notes) lines.push(...describe('note:', finding));
  const records = total(checkup);
  if (checkup.healthy) lines.push(out.c.green(`healthy: ${records}`));
  else {
    const count = checkup.damage.length + checkup.namespaces.reduce((sum, named) => sum + named.damage.length, 0);
    const where = checkup.namespaces.filter((named) => !named.healthy).map((named) => named.name);
    const places = `${count === 1 ? '1 damaged place' : `${count} damaged places`}${where.length > 0 ? ` (namespace${where.length === 1 ? '' : 's'} ${where.join(', ')}${checkup.damage.length > 0 ? ' and the default' : ''})` : ''}`;
    lines.push(`${places}; ${records} are readable. To keep them and set the damaged files aside, run: ${repairCommand(checkup.dir)}`);
  }
  return lines.join('\n');
}

/** One directory's files and damage, indented under its heading. */
function files(checkup: DirCheckup, out: Output, indent: string): string[] {
  const lines = checkup.files.map((f) => `${indent}${f.file}: ${f.records !== undefined ? `${f.records} records` : `${f.lines} readable lines`}`);
  for (const finding of checkup.damage) lines.push(...describe(out.c.red('damaged:'), finding).map((line) => indent.slice(2) + line));
  return lines;
}

/** "12 records", and those of the named namespaces when there are some. */
function total(checkup: Checkup): string {
  const named = checkup.namespaces.reduce((sum, n) => sum + n.records, 0);
  const count = checkup.namespaces.length;
  return `${checkup.records} records${count > 0 ? `, and ${named} in ${count} namespace${count === 1 ? '' : 's'}` : ''}`;
}

function repaired(repair: Repair, out: Output): string {
  const all = [repair, ...repair.namespaces];
  const dropped = all.reduce((sum, one) => sum + one.dropped.length, 0);
  if (dropped === 0) return `${report(repair, out)}\nnothing to repair`;
  const lines = [`payemu doctor --repair: ${repair.dir}`];
  for (const one of all) {
    const indent = one === repair ? '' : '  ';
    if (one !== repair && one.dropped.length > 0) lines.push(`  namespace ${(one as DirRepair & { name: string }).name} (${one.dir}):`);
    for (const { file, backup } of one.backups) lines.push(`${indent}  set aside: ${file} -> ${backup} (${file} now holds what could be read of it)`);
    for (const finding of one.dropped) lines.push(...describe(out.c.yellow('dropped:'), finding).map((line) => indent + line));
  }
  for (const finding of repair.notes) lines.push(...describe('note:', finding));
  lines.push(out.c.green(`repaired: ${total(repair)} kept, ${dropped} damaged ${dropped === 1 ? 'place' : 'places'} dropped`));
  return lines.join('\n');
}

function describe(label: string, finding: Finding): string[] {
  return [`${label} ${describeDamage(finding)}`, ...(finding.excerpt !== undefined ? [`  it starts: ${JSON.stringify(finding.excerpt)}`] : [])];
}
