// Whether this machine can contain commands: the backend the sandbox runtime uses here, what is missing, and the one
// line that installs it. Shown by `knack sandbox status`, the Settings page and the window's header badge.
import { platform } from 'node:os';
import { english, say, type Said } from '../base/index.js';
import type { Wall } from './wall.js';

/** How the workspace treats commands when the sandbox is or is not there (settings `sandbox.mode`). */
export type SandboxMode = 'auto' | 'required' | 'off';

export interface WallStatus {
  available: boolean;
  /** bubblewrap (Linux), seatbelt (macOS), srt-win (Windows), none. */
  backend: string;
  /** Why it is unavailable (empty when available). */
  reason: string;
  /** `reason` as words the window says in its language (absent for the sandbox runtime's own words). */
  reasonWords?: Said;
  /** One line that fixes it (empty when available). */
  hint: string;
  /** `hint` as words. */
  hintWords?: Said;
  mode: SandboxMode;
  /** Something that works less well than it should here, though commands are contained (Linux: no setpriv). */
  note?: string;
  /** Closed with its workspace: nothing runs for it, whatever the mode (there is nothing to fix). */
  closed?: true;
}

/**
 * A workspace's wall as the gate is told it (policy's WallView), from the same wall bash's handler runs commands in:
 * `closed` when its workspace is (nothing runs); `starting` while it has not answered (not there: the safe side);
 * else its mode, whether it is up, and why not.
 */
interface WallSeen {
  mode: SandboxMode;
  available: boolean;
  reason: string;
  /** `reason` as words (absent for the sandbox runtime's own words). */
  reasonWords?: Said;
  closed?: true;
  starting?: true;
}

export function wallSeen(wall: Wall | undefined, mode: SandboxMode, workspaceClosed = false): WallSeen {
  const why = (words: Said) => ({ reason: english(words), reasonWords: words });
  if (workspaceClosed || wall?.closed)
    return { mode: wall?.mode ?? mode, available: false, ...why(say('sandbox.closed')), closed: true };
  if (!wall)
    return mode === 'off'
      ? { mode, available: false, ...why(say('sandbox.offInSettings')) }
      : { mode, available: false, ...why(say('sandbox.starting')), starting: true };
  const s = wall.status();
  return {
    mode: s.mode,
    available: s.available,
    reason: s.reason,
    ...(s.reasonWords ? { reasonWords: s.reasonWords } : {}),
  };
}

export function backendOf(os: NodeJS.Platform = platform()): string {
  if (os === 'linux') return 'bubblewrap';
  if (os === 'darwin') return 'seatbelt';
  if (os === 'win32') return 'srt-win';
  return 'none';
}

/** The one-line fix for a missing dependency on this platform. */
export function installHintWords(os: NodeJS.Platform = platform()): Said {
  if (os === 'linux')
    return say('sandbox.hintLinux', {
      apt: 'sudo apt install bubblewrap socat ripgrep',
      dnf: 'sudo dnf install bubblewrap socat ripgrep',
    });
  if (os === 'darwin') return say('sandbox.hintDarwin');
  if (os === 'win32') return say('sandbox.hintWindows', { command: 'npx srt install' });
  return say('sandbox.hintOther', { os });
}

/** The one line a person reads: `sandbox: bubblewrap, on` or `sandbox unavailable (bubblewrap): … — fix: …`. */
export function describeWall(s: WallStatus): string {
  if (s.closed) return 'sandbox: closed with its workspace; commands are refused, whatever the mode';
  if (s.mode === 'off') return `sandbox: off in settings (sandbox.mode); commands run without it and each one asks`;
  if (s.available) return `sandbox: ${s.backend}, on (mode ${s.mode})${s.note ? `; note: ${s.note}` : ''}`;
  const then =
    s.mode === 'required'
      ? 'commands are refused (mode required)'
      : 'commands run without it, with your own access, and each one asks first (mode auto)';
  return `sandbox unavailable (${s.backend}): ${s.reason}; ${then} — fix: ${s.hint}`;
}
