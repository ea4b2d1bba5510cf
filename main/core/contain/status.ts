// Whether this machine can contain commands: the backend the sandbox runtime uses here, what is missing, and the one
// line that installs it. Shown by `knack sandbox status`, the Settings page and the window's header badge.
import { platform } from 'node:os';

/** How the workspace treats commands when the sandbox is or is not there (settings `sandbox.mode`). */
export type SandboxMode = 'auto' | 'required' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'required', 'off'];

export interface WallStatus {
  available: boolean;
  /** bubblewrap (Linux), seatbelt (macOS), srt-win (Windows), none. */
  backend: string;
  /** Why it is unavailable (empty when available). */
  reason: string;
  /** One line that fixes it (empty when available). */
  hint: string;
  mode: SandboxMode;
  /** Something that works less well than it should here, though commands are contained (Linux: no setpriv). */
  note?: string;
}

export function backendOf(os: NodeJS.Platform = platform()): string {
  if (os === 'linux') return 'bubblewrap';
  if (os === 'darwin') return 'seatbelt';
  if (os === 'win32') return 'srt-win';
  return 'none';
}

/** The one-line fix for a missing dependency on this platform. */
export function installHint(os: NodeJS.Platform = platform()): string {
  if (os === 'linux')
    return 'install bubblewrap, socat and ripgrep (Debian/Ubuntu: sudo apt install bubblewrap socat ripgrep; Fedora: sudo dnf install bubblewrap socat ripgrep), and allow unprivileged user namespaces';
  if (os === 'darwin') return 'sandbox-exec is part of macOS; update macOS or report the reason above';
  if (os === 'win32')
    return 'run `npx srt install` as administrator (the sandbox runtime sets up its own Windows user)';
  return `no OS sandbox on ${os}: set "sandbox": {"mode": "auto"} to approve every command`;
}

/** The one line a person reads: `sandbox: bubblewrap, on` or `sandbox unavailable (bubblewrap): … — fix: …`. */
export function describeWall(s: WallStatus): string {
  if (s.mode === 'off') return `sandbox: off in settings (sandbox.mode); commands run without it and each one asks`;
  if (s.available) return `sandbox: ${s.backend}, on (mode ${s.mode})${s.note ? `; note: ${s.note}` : ''}`;
  const then = s.mode === 'required' ? 'commands are refused (mode required)' : 'every command asks first (mode auto)';
  return `sandbox unavailable (${s.backend}): ${s.reason}; ${then} — fix: ${s.hint}`;
}
