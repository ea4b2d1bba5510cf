// The real auditor held until released: a test changes files, or looks at the `checking` state, while audits wait.
import { auditFolder } from '../../main/core/skills/trust/audit.js';
import type { BackgroundAudit } from '../../main/core/skills/trust/trust.js';

export function heldAudit(): { audit: BackgroundAudit; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  const audit: BackgroundAudit = (dir, parsed) => held.then(() => auditFolder(dir, parsed ? { parsed } : {}));
  return { audit, open };
}
