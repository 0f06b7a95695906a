import { clockAdvance } from './operations/clock-advance.js';
import { clockRead } from './operations/clock-read.js';
import { eventGet } from './operations/event-get.js';
import { eventResend } from './operations/event-resend.js';
import { eventsList } from './operations/events-list.js';
import { faultAdd } from './operations/fault-add.js';
import { faultRemove } from './operations/fault-remove.js';
import { faultsClear } from './operations/faults-clear.js';
import { faultsList } from './operations/faults-list.js';
import { health } from './operations/health.js';
import { invoicePay } from './operations/invoice-pay.js';
import { linkPay } from './operations/link-pay.js';
import { outcomesAdd } from './operations/outcomes-add.js';
import { outcomesClear } from './operations/outcomes-clear.js';
import { outcomesList } from './operations/outcomes-list.js';
import { requestsClear } from './operations/requests-clear.js';
import { requestsList } from './operations/requests-list.js';
import { namespaceDelete } from './operations/namespace-delete.js';
import { namespacesList } from './operations/namespaces-list.js';
import { reset } from './operations/reset.js';
import { sessionComplete } from './operations/session-complete.js';
import { snapshotExport } from './operations/snapshot-export.js';
import { snapshotImport } from './operations/snapshot-import.js';
import { trigger } from './operations/trigger.js';
import { webhookClear } from './operations/webhook-clear.js';
import { webhookChaosClear } from './operations/webhook-chaos-clear.js';
import { webhookChaosRead } from './operations/webhook-chaos-read.js';
import { webhookChaosSet } from './operations/webhook-chaos-set.js';
import { webhookRead } from './operations/webhook-read.js';
import { webhookSet } from './operations/webhook-set.js';

/**
 * The control operations (`/_payemu/...`), one entry each (operation.ts): their routes, the
 * client's methods and the library's are derived from this list. Adding one is a file in
 * operations/ and a line here. The order is the OpenAPI document's.
 */
export const OPERATIONS = [
  health,
  clockRead,
  clockAdvance,
  eventsList,
  eventGet,
  eventResend,
  trigger,
  sessionComplete,
  invoicePay,
  linkPay,
  reset,
  webhookChaosRead,
  webhookChaosSet,
  webhookChaosClear,
  webhookRead,
  webhookSet,
  webhookClear,
  requestsList,
  requestsClear,
  faultAdd,
  faultsList,
  faultRemove,
  faultsClear,
  outcomesAdd,
  outcomesList,
  outcomesClear,
  snapshotExport,
  snapshotImport,
  namespacesList,
  namespaceDelete,
] as const;

export type Operations = typeof OPERATIONS;
