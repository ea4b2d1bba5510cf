// Installs as the contract answers them (skills.install, .installUpload, .approveInstall, sources.*): an outcome with
// its audit report. What the dialogs need beyond the contract: a refusal without a report said as an error, a .zip as bytes.
import { MAX_UPLOAD_BYTES, type AuditReport, type InstallOutcome } from '../../../preload/contract';

/** An outcome the dialog shows as a report; one refused before any audit (no such folder, not a zip) is thrown. */
export function withReport(o: InstallOutcome): InstallOutcome & { report: AuditReport } {
  if (!o.report)
    throw { code: 'refused', message: o.reason ?? `install ${o.status}`, ...(o.words ? { words: o.words } : {}) };
  return o as InstallOutcome & { report: AuditReport };
}

/** Bytes → base64 without one huge argument list (btoa takes a binary string). */
function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** A .zip dropped on the window as skills.installUpload's input; one larger than main accepts is refused here. */
export function zipUpload(name: string, bytes: Uint8Array, tier: 'user' | 'project', replace = false) {
  if (bytes.length > MAX_UPLOAD_BYTES) {
    throw {
      code: 'refused',
      message: `${name} is ${(bytes.length / 1048576).toFixed(1)} MB; the largest .zip accepted here is ${MAX_UPLOAD_BYTES / 1048576} MB (install it from a folder instead)`,
    };
  }
  return { filename: name, data: toBase64(bytes), tier, replace };
}

/** The skill an outcome is about (a refusal before any audit may name none). */
export const skillOf = (o: InstallOutcome): string => o.skill ?? o.report?.skill ?? '';
