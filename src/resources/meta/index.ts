import { resourceModule, storedCollection } from '../module.js';
import { Meta } from './records.js';

/** Emulator-wide records: the clock's state and the counters (no routes). */
export const metaModule = resourceModule('meta', { collections: [storedCollection(Meta)] });
