// Finding a skill's script on disk: inside its scripts/ folder by real path, JavaScript only, bounded size.
// Other languages get a clear error: they never run in the sandbox, only through the bash tool under its rules.
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, relative, sep } from 'node:path';
import { isInside, realPathOf, realRoot } from '../base/index.js';
import { SandboxError } from './protocol.js';

const SCRIPT_EXTENSIONS = ['.mjs', '.js'];
/** Largest script source accepted. */
const MAX_SCRIPT_BYTES = 2 * 1024 * 1024;

const LANGUAGES: Record<string, string> = {
  '.py': 'Python',
  '.sh': 'shell',
  '.bash': 'shell',
  '.zsh': 'shell',
  '.ps1': 'PowerShell',
  '.rb': 'Ruby',
  '.pl': 'Perl',
  '.ts': 'TypeScript',
  '.cjs': 'CommonJS',
  '.bat': 'batch',
  '.cmd': 'batch',
  '.php': 'PHP',
  '.go': 'Go',
};

export interface ScriptSource {
  /** Real path of the file. */
  file: string;
  /** Shown in stack traces: `<skill>/scripts/<name>`. */
  filename: string;
  source: string;
}

function notJavaScript(shown: string): SandboxError {
  const ext = extname(shown).toLowerCase();
  const lang = LANGUAGES[ext] ?? `"${ext || 'extension-less'}"`;
  return new SandboxError(
    'script.not_javascript',
    `${shown} is a ${lang} script: the sandbox runs only JavaScript (.js, .mjs). Scripts in other languages never run in the sandbox; ` +
      'they run only through the bash tool, under its rules and approvals.',
    { file: shown },
  );
}

/** Read a JavaScript file for the sandbox (used directly by `knack sandbox run`). */
export async function readScriptFile(file: string, shown = file): Promise<ScriptSource> {
  if (!SCRIPT_EXTENSIONS.includes(extname(file).toLowerCase())) throw notJavaScript(shown);
  const st = await stat(file).catch(() => undefined);
  if (!st || !st.isFile()) throw new SandboxError('script.not_found', `${shown}: no such script file`);
  if (st.size > MAX_SCRIPT_BYTES)
    throw new SandboxError(
      'script.too_large',
      `${shown}: ${st.size} bytes is over the ${MAX_SCRIPT_BYTES}-byte script size limit`,
    );
  return { file, filename: shown, source: await readFile(file, 'utf8') };
}

/**
 * Find `script` in `<skillDir>/scripts/`: `name.mjs`, `name.js`, `scripts/name.mjs`, or `name` with the extension
 * left out. The real path must stay inside the scripts folder (no `..`, no symlink out).
 */
export async function findSkillScript(skillName: string, skillDir: string, script: string): Promise<ScriptSource> {
  const scriptsDir = join(realRoot(skillDir), 'scripts');
  const rel = script.replace(/^\.?[/\\]?scripts[/\\]/, '');
  const shown = `${skillName}/scripts/${rel}`;
  if (!rel || rel.includes('\0')) throw new SandboxError('script.not_found', `${shown}: no script name given`);
  const candidates = extname(rel) ? [rel] : SCRIPT_EXTENSIONS.map((e) => rel + e);
  for (const c of candidates) {
    const real = realPathOf(join(scriptsDir, c), scriptsDir);
    if (!isInside(real.real, scriptsDir) || real.real === scriptsDir) {
      throw new SandboxError('script.outside', `${shown}: leaves the skill's scripts/ folder`);
    }
    if (!real.exists) continue;
    return readScriptFile(real.real, `${skillName}/scripts/${relative(scriptsDir, real.real).split(sep).join('/')}`);
  }
  if (extname(rel) && !SCRIPT_EXTENSIONS.includes(extname(rel).toLowerCase())) throw notJavaScript(shown);
  throw new SandboxError(
    'script.not_found',
    `${shown}: no such script (scripts live in ${basename(skillDir)}/scripts/ and end in .js or .mjs)`,
  );
}
