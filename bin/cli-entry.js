// Loads the TypeScript CLI through tsx so a checkout runs without a build step.
import { register } from 'tsx/esm/api';

register();
export const { main } = await import('../main/cli/index.ts');
