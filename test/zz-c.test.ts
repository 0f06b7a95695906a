import t from 'tap';
import { startEmulator } from '../src/index.js';
t.ok(startEmulator);
