// Reopening a conversation Knack left mid-turn (a crash, a kill, a closed window): a half-streamed answer is marked
// interrupted, what a cut-off tool call started and is still running is ended, every call left without a result gets
// one, and pending approvals are asked again. Read from the replayed state; every change is an event recorded.
import { endLeftoverGroup } from '../tools/index.js';
import type { ToolCallPart } from './providers/types.js';
import { unresolvedCalls, type SessionState } from './state.js';
import type { AgentEventBody } from './types.js';

/** `failed` records a call's result as the error `tool.interrupted` with `message`. */
export function recoverSession(
  state: SessionState,
  record: (body: AgentEventBody) => void,
  failed: (call: ToolCallPart, message: string) => void,
): void {
  const interrupted = state.streaming;
  if (interrupted) record({ type: 'assistant_end', stopReason: 'interrupted', interrupted: true });
  const pendingCalls = new Set([...state.pending.values()].map((p) => p.callId));
  // Before the session continues: what a cut-off call started and is still running (its Knack gone) is ended.
  const ended = new Map<string, number>();
  for (const [callId, g] of state.processes) {
    const n = endLeftoverGroup(g);
    if (n) ended.set(callId, n);
  }
  const endedProcesses = [...ended.values()].reduce((a, b) => a + b, 0);
  let unfinished = 0;
  if (pendingCalls.size === 0) {
    unresolvedCalls(state).forEach((c, i) => {
      unfinished++;
      const n = ended.get(c.id);
      failed(
        c,
        i === 0 || state.processes.has(c.id)
          ? 'interrupted: Knack stopped while this call was running; it may have partly run' +
              (n
                ? `; ${n} of its processes (process group ${state.processes.get(c.id)!.pgid}) were still running and were ended`
                : '')
          : 'not run: Knack stopped before it started',
      );
    });
    if (state.turnOpen) record({ type: 'turn_end', reason: 'interrupted', steps: 0, toolCalls: 0 });
  }
  if (interrupted || unfinished || pendingCalls.size || endedProcesses) {
    record({
      type: 'recovered',
      interruptedAnswer: interrupted,
      pendingApprovals: pendingCalls.size,
      unfinishedCalls: unfinished,
      ...(endedProcesses ? { endedProcesses } : {}),
    });
    for (const p of [...state.pending.values()]) record({ ...p });
  }
}
