// CLI commands (placeholder until the owning area lands them).
import type { Command } from './command.js';

export const skillsMatchCommands: Command[] = [];
