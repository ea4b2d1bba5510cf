// The audit's rule book: P0 (refuse) and P1 (ask) patterns by family, each limited to the contexts where it means harm.
// Families follow public skill scanners (code execution, exfiltration, obfuscation, prompt injection, hidden text, remote instructions).
// What a rule's finding says is in the words table (preload/words.ts, `audit.<id>`), in English and Chinese.
import { english, say, WORDS, type Said, type WordCode } from '../../base/index.js';

export type Level = 'P0' | 'P1' | 'P2';
export type Family =
  | 'code-execution'
  | 'destructive'
  | 'privilege'
  | 'exfiltration'
  | 'network'
  | 'install'
  | 'obfuscation'
  | 'prompt-injection'
  | 'hidden-text'
  | 'remote-instructions'
  | 'permissions'
  | 'manifest'
  | 'structure';

/**
 * Where a line sits. prose: Markdown text; inline: `code` inside prose; shell: a shell code block or shell script;
 * example: a non-shell code block in Markdown (code shown, not run); script: a program file; comment: a comment in a script.
 */
export type Context = 'prose' | 'inline' | 'shell' | 'example' | 'script' | 'comment';

export interface AuditRule {
  id: string;
  family: Family;
  level: 'P0' | 'P1';
  re: RegExp;
  /** Lowercase substrings of which at least one must occur before the regex runs (a cheap prefilter). */
  hints: string[];
  /**
   * Or one substring of each side (for a pattern that needs two words, each common alone: an embedding verb and a
   * URL word). Whitespace in a hint stands for any run of whitespace.
   */
  hintPair?: [string[], string[]];
  /** Contexts where the rule applies at its level. */
  contexts: Context[];
  /** Contexts where it applies one level lower (P0 → P1): e.g. code shown as an example in a doc. */
  weak?: Context[];
  /** Skip when the text around the match negates it ("never use sudo"). */
  negatable?: boolean;
  /** P0 → P1 when the phrase is quoted or discussed (a security doc listing attack phrases). */
  mentionable?: boolean;
  /** Its level inside an inline program run as a command (`python3 -c "…"`), when higher than in a script file. */
  inlineProgram?: 'P0';
  /**
   * Its Chinese forms: an alternative of `re` tried on any text with CJK characters (the hint prefilter reads ASCII
   * only). Text is NFKC-normalised first, so full-width ！？，： arrive as ASCII.
   */
  zh?: RegExp;
  /** What a finding of it says: `audit.<id>` of the words table, and its English. */
  words: Said;
  message: string;
}

/** A shell variable as a path: $X, ${X}, ${X:-default}, ${X=default} (not ${X:?}, which fails when X is unset). */
const SH_VAR = String.raw`\$(?:\w+|\{\w+(?::?[-=][^}]*)?\})`;

/** Where a URL starts in markdown or HTML that the agent may render: `![x](`, `[x](`, `<img src=`, `<a href=`. */
const MD_URL = String.raw`(?:!?\[[^\]\n]{0,200}\]\(\s*<?|<(?:img|a|iframe)\b[^>\n]{0,200}\b(?:src|href)\s*=\s*["']?)`;
/** A URL up to its query (the first ? or #), then a lazy walk into the query; bounded so no line can go quadratic. */
const URL_QUERY = String.raw`https?:\/\/[^\s)"'>?#]{0,300}[?#][^\s)"'>]{0,300}?`;
const SECRET_WORD = String.raw`secrets?|tokens?|api[ _-]?keys?|private[ _-]?keys?|ssh[ _-]?keys?|\bkeys?\b|credentials?|passw(?:or)?ds?|\.env\b|\benv(?:ironment)?(?:[ _](?:variables?|values?|vars))?\b|cookies?|[A-Z0-9]+_(?:KEY|TOKEN|SECRET)\b|id_rsa|\.ssh`;
const DATA_WORD = String.raw`${SECRET_WORD}|contents?|files?|data|history|conversation|chat|messages?|prompts?|source(?: code)?|code|repo(?:sitory)?|workspace|diff|output|answers?|user(?:'s)? (?:input|question|data)`;
const EMBED_VERB = String.raw`\b(?:append|add|include|embed|put|encode|insert|place|pass|attach|stuff|smuggle|fill|substitute|interpolate)\b`;
const URL_WORD = String.raw`(?:\b(?:the |an? |its |each )?(?:urls?|query(?: strings?| param(?:eter)?s?)?|url param(?:eter)?s?|image (?:url|link|src)|links?|src|href)\b)`;

/** How words say a URL's empty query value is to be filled: `…?q= followed by the key`. */
const FILLED_BY = String.raw`(?:followed by|plus|\+|containing|concatenated with|appended with|and then (?:add|append))\b`;

/** The verbs of EMBED_VERB, as hints. */
const EMBED_HINTS = [
  'append',
  'add',
  'include',
  'embed',
  'put',
  'encode',
  'insert',
  'place',
  'pass',
  'attach',
  'stuff',
  'smuggle',
  'fill',
  'substitute',
  'interpolate',
];

const CODE: Context[] = ['shell', 'script', 'inline'];
const ALL: Context[] = ['prose', 'inline', 'shell', 'example', 'script', 'comment'];
const SHELLISH: Context[] = ['shell', 'inline'];

/** CJK ideographs: text with one is tried against every rule's Chinese forms (AuditRule.zh). */
export const CJK_RE = /[\u3400-\u9fff]/;
/** Within one sentence (Chinese or ASCII end marks). */
const ZH_SAY = String.raw`[^。!?！？\n]`;
/** Where Chinese prose points the agent at a URL or a known drop. */
const ZH_DROP = String.raw`(?:https?:\/\/|webhook|pastebin|ngrok|requestbin)`;
/** What Chinese prose may tell the agent to send out: files, code, secrets, the conversation. */
const ZH_DATA = String.raw`(?:内容|文件|源码|源代码|代码|工作区|仓库|机密|秘密|密钥|私钥|凭据|凭证|令牌|token|环境变量|\.env|\.ssh|id_rsa|聊天记录|对话|历史记录|密码)`;
const ZH_SEND = String.raw`(?:发送|上传|提交|转发|粘贴|复制|同步|备份)`;
/** Secrets, as Chinese prose names them. */
const ZH_SECRET = String.raw`(?:\.env|环境变量|密钥|私钥|凭据|凭证|令牌|密码|机密)`;

/**
 * Environment variables as a secret shown in the answer, unless only their names are: "the names of the environment
 * variables", "… without their values", with no other "value" later on the line ("… then print their values too").
 */
const ENV_VARS =
  String.raw`(?:(?<!\bnames? of (?:the |all |any )?)|(?=[^\n]*\bvalues?\b))environment variables?` +
  String.raw`(?![^.\n]{0,80}\bwithout (?:their |the |any )?values?\b(?![^\n]*\bvalues?\b))`;

/** ENV_VARS in Chinese: 环境变量 unless its names (名称) are meant, with no 值 (value) on the line but a negated one. */
const ZH_REPLY_SECRET = ZH_SECRET.replace(
  '环境变量',
  String.raw`环境变量(?!的?名(?:称|字)?(?![^\n]*(?<!(?:不|无|没有|别|勿)[^\n值]{0,8})值))`,
);

const RULE_BOOK: Omit<AuditRule, 'words' | 'message'>[] = [
  // ---- destructive / privilege (P0) ----
  {
    id: 'destructive.rm-root',
    hints: ['rm ', 'find /', 'find ~', 'find "$', 'find $'],
    family: 'destructive',
    level: 'P0',
    contexts: [...CODE],
    weak: ['example', 'prose'],
    negatable: true,
    // Targets: /, /*, ~, $HOME, *, . and .. — and a variable path that expands to / or ~ when the variable is empty or
    // unset ("$DIR"/, $DIR/*, "${DIR}/", ${X:-/}). A ${X:?} guard stops the shell first and is not matched.
    re: new RegExp(
      String.raw`\brm\s+(?=(?:-{1,2}[\w-]*\s+)*?-(?:[a-zA-Z]*[rR]|-recursive\b))(?:-{1,2}[\w-]*\s+)+` +
        String.raw`(?:\/\*?|~\/?\*?|\*|\.\.?\/?|"?\$\{?HOME\}?"?\/?\*?|"?${SH_VAR}"?\/\*?|"${SH_VAR}\/\*?"|"?\$\{\w+:?[-=][\/~]\/?\*?\}"?\/?\*?)(?=\s|$|[;&|)"'\x60])` +
        // find / -delete, find ~ -exec rm …: the same recursive delete spelled with find.
        String.raw`|\bfind\s+(?:\/|~\/?|"?\$\{?HOME\}?"?\/?)\s[^\n|;&]{0,200}?(?:-delete\b|-exec\s+rm\b)`,
    ),
  },
  {
    id: 'destructive.rm-root-spelled',
    hints: ['xargs'],
    hintPair: [['rm'], ['{', '$(', '${']],
    family: 'destructive',
    level: 'P0',
    contexts: [...CODE],
    weak: ['example', 'prose'],
    negatable: true,
    // The same recursive delete of / or ~ spelled so the plain pattern misses it: brace expansion ({rm,-rf,/}),
    // make's $(RM) (rm -f) with -r, and the target fed through xargs (echo / | xargs rm -rf).
    re: new RegExp(
      String.raw`\{\s*rm\s*,(?:[^{}\n,]*,)*?\s*-[\w-]*[rR][\w-]*\s*,(?:[^{}\n,]*,)*?\s*(?:\/|~)\/?\*?\s*[,}]` +
        String.raw`|\$[({]RM[)}]\s+(?:-[\w-]+\s+)*?-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-[\w-]+\s+)*(?:\/|~\/?|\$\(HOME\)|\$\{?HOME\}?)\*?(?=\s|$|[;&|)])` +
        String.raw`|\b(?:echo|printf)\s+["']?(?:\/|~\/?|\$\{?HOME\}?)["']?\s*\|\s*xargs\s+(?:-\S+\s+)*rm\s+(?:-[\w-]+\s+)*?-(?:[a-zA-Z]*[rR]|-recursive\b)`,
    ),
  },
  {
    id: 'destructive.tree-root',
    hints: ['rmtree', 'rmsync', 'rmdirsync', 'rm(', 'rm (', 'rmdir(', 'rmdir ('],
    family: 'destructive',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // The same delete from a program: shutil.rmtree / fs.rm / fs.rmSync / fs.rmdirSync of /, ~ or the home folder.
    re: /\b(?:rmtree|rm|rmSync|rmdir|rmdirSync)\s*\(\s*(?:(?:r|f)?["'`]\s*(?:\/|~\/?|\$HOME\/?)\s*["'`]|os\.path\.expanduser\(\s*["']~\/?["']\s*\)|(?:pathlib\.)?Path\.home\(\s*\)|(?:os\.)?environ(?:\.get)?\s*[[(]\s*["']HOME["']|os\.getenv\(\s*["']HOME["']|(?:[\w$]+(?:\([^()\n]*\))?\s*\.\s*)?homedir\(\s*\)|process\.env\.HOME\b|str\(\s*(?:(?:pathlib\.)?Path\.home\(\s*\)|os\.path\.expanduser\(\s*["']~\/?["']\s*\))\s*\)|`\$\{\s*(?:process\.env\.HOME|(?:[\w$]+\.)?homedir\(\s*\))\s*\}\/?`)/,
  },
  {
    id: 'destructive.disk',
    hints: ['mkfs', 'dd ', ':()', 'chmod', '/dev/sd'],
    family: 'destructive',
    level: 'P0',
    contexts: [...CODE],
    weak: ['example', 'prose'],
    negatable: true,
    re: /\bmkfs(\.\w+)?\s|\bdd\s+[^\n]*of=\/dev\/(sd|nvme|disk|hd)|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bchmod\s+(-R\s+)?[0-7]?777\s+\/(\s|$)|>\s*\/dev\/sd[a-z]/,
  },
  {
    id: 'privilege.sudo',
    hints: ['sudo', 'doas', 'pkexec', 'su '],
    family: 'privilege',
    level: 'P0',
    contexts: [...CODE],
    weak: ['example', 'prose'],
    negatable: true,
    re: /(?:^|[;&|(`]\s*|\$\(\s*|\b(?:then|do|exec)\s+)(?:sudo|doas|pkexec)\s+\S|\bsu\s+(-c\s|root\b|-\s)/,
  },
  // ---- code execution (P0) ----
  {
    id: 'exec.eval',
    hints: ['eval(', 'eval ('],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script', 'shell'],
    weak: ['example', 'inline'],
    re: /(?<![.\w$])eval\s*\(/,
  },
  {
    id: 'exec.shell-eval',
    hints: ['eval "', "eval '", 'eval $', 'eval `'],
    family: 'code-execution',
    level: 'P1',
    contexts: ['shell'],
    re: /(?:^|[;&|]\s*)eval\s+["'$`]/,
  },
  {
    id: 'exec.exec',
    hints: ['exec(', 'exec ('],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // Not a call whose first argument is a bare program name (`exec('vercel', ['--version'])`: execFile promisified
    // under that name, or Python's exec of a lone identifier): nothing in it is code.
    re: /(?<![.\w$])exec\s*\(\s*(?!\))(?!(['"])[\w./-]+\1\s*[,)])/,
  },
  {
    id: 'exec.function-constructor',
    hints: ['function(', 'function ('],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    re: /\bnew\s+Function\s*\(|(?<![.\w$])Function\s*\(\s*["'`\w]/,
  },
  {
    id: 'exec.indirect-eval',
    hints: [
      '=eval',
      '= eval',
      '(eval',
      '( eval',
      ',eval',
      ', eval',
      ':eval',
      ': eval',
      '?eval',
      '? eval',
      'return eval',
      'returneval',
      'settimeout',
      'setinterval',
      'setimmediate',
      'vm.',
      'vm .',
      '.constructor',
      '. constructor',
    ],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // (0, eval)(…) and window.eval are global eval; a string handed to a timer is evaluated; vm runs code; (…).constructor("…") is Function.
    re: /\(\s*\d+\s*,\s*eval\s*\)|(?:[=(,:?]|\breturn)\s*eval\b(?!\s*[(\w$.])|\bset(?:Timeout|Interval|Immediate)\s*\(\s*(?:["'][^"'\n]|`)|\bvm\s*\.\s*(?:runIn(?:New|This)?Context|compileFunction)\s*\(|\bnew\s+vm\s*\.\s*Script\s*\(|\.\s*constructor\s*\(\s*["'`]/,
  },
  {
    id: 'exec.dynamic-import',
    hints: ['import(', 'import ('],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // import() of anything but a plain string literal: the module to run is computed at run time. Python's
    // `from pkg import (` (a list of names over several lines) is a static import.
    re: /(?<![.\w$])(?<!\bfrom\s+\.*[\w.]*\s+)import\s*\(\s*(?!["'][^"'\n$]*["']\s*[,)]|`[^`$\n]*`\s*[,)]|\))/,
  },
  {
    id: 'exec.child-process',
    hints: ['child_process', '.binding', '. binding', '_linkedbinding'],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // process.binding('spawn_sync') is child_process without its name.
    re: /\bchild_process\b|\bnode:child_process\b|\bprocess\s*\.\s*(?:binding|_linkedBinding)\s*\(/,
  },
  {
    id: 'exec.vm-module',
    hints: ['vm"', "vm'", 'vm`', 'eval:', 'eval :'],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    // The vm module exists to run strings as code; a Worker with eval: true runs a string as a thread's program.
    re: /\brequire\s*\(\s*["'`](?:node:)?vm["'`]\s*\)|\b(?:from|import)\s+["'](?:node:)?vm["']|\bimport\s*\(\s*["'](?:node:)?vm["']|\bnew\s+Worker\s*\([^)\n]*\beval\s*:\s*true\b/,
  },
  {
    id: 'exec.os-system',
    hints: [
      '.system',
      '. system',
      '.popen',
      '. popen',
      '.exec',
      '. exec',
      '.spawn',
      '. spawn',
      'system(',
      'system (',
      'subprocess',
      'commands.',
      'getruntime',
      'shell_exec',
      'passthru',
      'proc_open',
      'from os import',
    ],
    family: 'code-execution',
    level: 'P0',
    contexts: ['script'],
    weak: ['example', 'inline'],
    re: /(?:\bos|(?:__import__|\bimport_module)\(\s*["']os["']\s*\))\s*\.\s*(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\s*\(|\bfrom\s+os\s+import\b[^#\n]*\b(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\b|(?<![\w$.])(?!platform\b)[A-Za-z_]\w*\s*\.\s*(?:system|popen)\s*\(\s*(?:[rbf]?["'`]|input\s*\(|sys\.argv|cmd\b|command\b)|[=(,:]\s*os\s*\.\s*(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\b(?!\s*\()|\bsubprocess\.\w+\([^)\n]*shell\s*=\s*True|\bpty\.spawn\s*\(|\bcommands\.getoutput\s*\(|\bRuntime\.getRuntime\(\)\.exec|\bshell_exec\s*\(|\bpassthru\s*\(|\bproc_open\s*\(|(?<![.\w$>:])system\s*\(\s*["'$@\w]/,
  },
  {
    id: 'exec.pipe-to-shell',
    hints: ['curl', 'wget', 'iex'],
    hintPair: [['fetch', 'iwr', 'invoke-', 'irm'], ['|']],
    family: 'code-execution',
    level: 'P0',
    contexts: ['shell', 'script', 'inline', 'example'],
    weak: ['prose'],
    negatable: true,
    re: /\b(?:curl|wget|fetch|iwr|Invoke-WebRequest|Invoke-RestMethod|irm)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\b(?:curl|wget|iwr|irm)\b[^|\n]*\|\s*(?:sudo\s+)?(?:python3?|node|perl|ruby|php|iex|Invoke-Expression)\b|(?:ba)?sh\s+(?:-c\s+)?["']?\$\(\s*(?:curl|wget)|(?:ba)?sh\s+<\(\s*(?:curl|wget)|\biex\s*\(\s*(?:iwr|irm|New-Object\s+Net\.WebClient)/i,
  },
  {
    id: 'exec.reverse-shell',
    hints: ['/dev/tcp', 'nc ', 'ncat', 'socket.socket', 'dup2'],
    family: 'code-execution',
    level: 'P0',
    contexts: ['shell', 'script', 'inline', 'example'],
    re: /\/dev\/tcp\/[\w.-]+\/\d+|\bnc(?:at)?\s+(?:-\w+\s+)*-e\s+\/bin\/(?:ba)?sh|\bsocket\.socket\([^)]*\)[^\n]*\.connect\([^\n]*(?:dup2|subprocess)|os\.dup2\([^)]*fileno\(\)/,
  },
  // ---- obfuscation (P0) ----
  {
    id: 'obfuscation.decode-exec',
    hints: ['base64', 'atob', 'b64decode', 'fromcharcode', 'unhexlify', 'decode(', 'buffer.from'],
    family: 'obfuscation',
    level: 'P0',
    contexts: ['shell', 'script', 'inline', 'example'],
    re: /(?:eval|exec|Function)\s*\([^\n]*(?:atob|b64decode|base64|fromCharCode|unhexlify|decode\(|Buffer\.from)|base64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:ba|z)?sh\b|(?:atob|b64decode)\([^\n]*\)[^\n]*\|\s*(?:ba)?sh/,
  },
  {
    id: 'obfuscation.decode-pipe-shell',
    hints: ['rev |', 'rev|', 'xxd', 'base32', 'openssl', 'gunzip', 'zcat', 'uudecode'],
    family: 'obfuscation',
    level: 'P0',
    contexts: ['shell', 'script', 'inline', 'example'],
    weak: ['prose'],
    negatable: true,
    // Text turned back into commands and piped to a shell: reversed, hex, base32, encrypted, compressed.
    re: /\b(?:rev|xxd\s+[^|\n]*-r[^|\n]*|base32\s+(?:-d|--decode)[^|\n]*|openssl\s+(?:enc|base64)[^|\n]*\s-d\b[^|\n]*|gunzip[^|\n]*|zcat[^|\n]*|uudecode[^|\n]*)\s*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/,
  },
  // ---- exfiltration ----
  {
    id: 'exfil.env-send',
    hints: ['env |', 'env|', 'printenv', '$(env', '$( env', '`env', '` env'],
    family: 'exfiltration',
    level: 'P0',
    contexts: ['shell', 'script', 'inline', 'example'],
    negatable: true,
    // The whole environment (every key and token in it) sent to the network: `env | curl -d @- …`, `printenv | nc …`, `-d "$(env)"`.
    re: /(?:^|[;&|(`]\s*|\$\(\s*)(?:env|printenv)\s*\|[^\n]*\b(?:curl|wget|nc|ncat|socat|http|Invoke-RestMethod|Invoke-WebRequest)\b|\b(?:curl|wget|http)\b[^\n]*(?:\$\(\s*(?:env|printenv)\s*\)|`(?:env|printenv)`)/,
  },
  {
    id: 'exfil.sensitive-read',
    hints: [
      '.ssh',
      '.aws',
      '.gnupg',
      '.kube',
      '.docker',
      'gcloud',
      'azure',
      'id_',
      '.netrc',
      'credentials',
      '.pypirc',
      '.npmrc',
      'aws_secret_access_key',
      'aws_session_token',
      'github_token',
      'gh_token',
      'openai_api_key',
      'anthropic_api_key',
      'npm_token',
      'slack_token',
      'stripe_secret_key',
      '.env',
      'login data',
      'cookies',
      'find-',
      'shadow',
      'json.stringify(process.env',
      'json.dumps(os.environ',
      'str(os.environ',
    ],
    family: 'exfiltration',
    level: 'P1',
    contexts: ['shell', 'script'],
    re: /(?:~|\$HOME|\$\{HOME\}|\/root|\/home\/(?:[\w.-]+|\*)|%USERPROFILE%|expanduser\(["']~|(?:homedir|Path\.home)\(\)[^\n]{0,20}?["'`])[/\\]*\.(?:ssh|aws|gnupg|kube|docker|config\/gcloud|azure|npmrc|netrc|pypirc|git-credentials)\b|\bjson\.dumps\(\s*os\.environ\s*\)|\bJSON\.stringify\(\s*process\.env\s*\)|\bstr\(\s*os\.environ\s*\)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\.aws\/credentials|\.netrc\b|\.git-credentials|\.pypirc|(?:~|\$HOME)\/\.npmrc|\b(?:AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|GITHUB_TOKEN|GH_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY|NPM_TOKEN|SLACK_TOKEN|STRIPE_SECRET_KEY)\b|(?:cat|source|read|open|load|readFile\w*)\W{1,3}[\w./-]*\.env\b(?![.\w])|\bLogin Data\b|\bcookies\.sqlite\b|\bsecurity\s+find-(?:generic|internet)-password\b|\/etc\/shadow/i,
  },
  {
    id: 'exfil.network-send',
    hints: [
      'curl',
      'wget',
      'requests.',
      'fetch(',
      'fetch (',
      'axios',
      'http.request',
      'https.request',
      'nc ',
      'scp ',
      'sendbeacon',
      'smtplib',
      'invoke-restmethod',
    ],
    family: 'exfiltration',
    level: 'P1',
    contexts: ['shell', 'script', 'inline'],
    re: /\bcurl\b[^\n]*\s(?:-d|--data(?:-\w+)?|-F|--form|-T|--upload-file|-X\s*(?:POST|PUT))(?=[\s=@"'])|\bwget\b[^\n]*--post-(?:data|file)|\brequests\.(?:post|put|patch)\s*\(|\bfetch\s*\([^)\n]*method\s*:\s*["'](?:POST|PUT)|\baxios\.(?:post|put)\s*\(|\bhttps?\.request\s*\(|\bnc\s+[\w.-]+\s+\d{2,5}\b|\bscp\s+[^\n]*\s[\w.-]+@?[\w.-]+:|\bsendBeacon\s*\(|\bsmtplib\b|\bInvoke-RestMethod\b[^\n]*-Method\s+Post/i,
  },
  {
    id: 'exfil.instruction',
    hints: ['http', 'webhook', 'pastebin', 'ngrok', 'requestbin'],
    family: 'exfiltration',
    level: 'P0',
    contexts: ['prose', 'comment'],
    weak: ['inline', 'example'],
    mentionable: true,
    negatable: true,
    re: /\b(?:send|upload|post|transmit|forward|exfiltrate|copy|share|submit|beam)\b(?:[^.\n]|\.(?=\w)){0,80}\b(?:contents?|files?|source(?: code)?|workspace|repo(?:sitory)?|secrets?|credentials?|keys?|tokens?|env(?:ironment)?(?: variables)?|\.env|\.ssh|ssh keys?|history|conversation|codebase|password)\b(?:[^.\n]|\.(?=\w)){0,80}\b(?:to|at|into)\b(?:[^.\n]|\.(?=\w)){0,20}(?:https?:\/\/|\b(?:webhook|pastebin|ngrok|requestbin)\b)/i,
    zh: new RegExp(
      String.raw`(?:把|将)${ZH_SAY}{0,60}?${ZH_DATA}${ZH_SAY}{0,30}?(?:${ZH_SEND}|发|传|贴)(?:到|至|给)${ZH_SAY}{0,20}?${ZH_DROP}` +
        String.raw`|${ZH_SEND}${ZH_SAY}{0,60}?${ZH_DATA}${ZH_SAY}{0,30}?(?:到|至|给)${ZH_SAY}{0,20}?${ZH_DROP}`,
      'i',
    ),
  },
  {
    id: 'exfil.reply-secret',
    hints: [],
    hintPair: [
      ['reply', 'answer', 'response', 'output', 'chat', 'message'],
      [
        '.env',
        'environment variable',
        'secret',
        'credential',
        'password',
        'private key',
        'api key',
        'token',
        '.ssh',
        'id_rsa',
        'ssh key',
      ],
    ],
    family: 'exfiltration',
    level: 'P1',
    contexts: ['prose', 'comment'],
    negatable: true,
    // Telling the agent to show secrets in its answer: they go to the model provider and stay in the conversation.
    re: new RegExp(
      String.raw`\b(?:print|show|output|echo|display|copy|paste|include|reveal|list|dump|write|put|quote)\b[^.\n]{0,40}(?:\.env\b|\b(?:${ENV_VARS}|secrets?|credentials?|passwords?|private keys?|api keys?|access tokens?|auth tokens?|ssh keys?|id_rsa)\b|~\/\.ssh)[^.\n]{0,40}\b(?:in|into|to) (?:your|the) (?:reply|answer|response|chat|message)\b`,
      'i',
    ),
    zh: new RegExp(
      String.raw`(?:把|将)${ZH_SAY}{0,40}?${ZH_REPLY_SECRET}${ZH_SAY}{0,30}?` +
        String.raw`(?:复制|粘贴|写|放|贴|打印|输出|列)(?:到|进|在)?${ZH_SAY}{0,10}?(?:回复|回答|答复|消息)` +
        String.raw`|在(?:你的)?(?:回复|回答|答复)(?:中|里)${ZH_SAY}{0,20}?(?:打印|输出|列出|显示|附上)${ZH_SAY}{0,30}?${ZH_REPLY_SECRET}`,
    ),
  },
  {
    id: 'exfil.url-secret',
    hints: ['http'],
    hintPair: [['url', 'query', 'link', 'src', 'href'], EMBED_HINTS],
    family: 'exfiltration',
    level: 'P0',
    contexts: ['prose', 'comment', 'inline'],
    weak: ['example'],
    mentionable: true,
    negatable: true,
    // A markdown image/link (or <img src>) whose query is filled with a secret, or words telling the agent to put one there.
    re: new RegExp(
      String.raw`${MD_URL}${URL_QUERY}(?:\{\{?|\$\{?|%|<)[^}\n)>%"']{0,40}?(?:${SECRET_WORD})` +
        String.raw`|${EMBED_VERB}[^.\n]{0,100}\b(?:${SECRET_WORD})[^.\n]{0,80}\b(?:in|into|to|as|inside)\b[^.\n]{0,30}${URL_WORD}` +
        String.raw`|https?:\/\/[^\s?#]{0,300}[?#]\S{0,300}?=\s+${FILLED_BY}[^.\n]{0,60}\b(?:${SECRET_WORD})`,
      'i',
    ),
  },
  {
    id: 'exfil.url-data',
    hints: ['http'],
    hintPair: [['url', 'query', 'link', 'src', 'href'], EMBED_HINTS],
    family: 'exfiltration',
    level: 'P1',
    contexts: ['prose', 'comment', 'inline', 'example'],
    negatable: true,
    // An image fetched with a filled-in query (rendering it sends the data), a link filled with workspace data, or words saying to.
    re: new RegExp(
      String.raw`(?:!\[[^\]\n]{0,200}\]\(\s*<?|<img\b[^>\n]{0,200}\bsrc\s*=\s*["']?)${URL_QUERY}(?:\{\{?[^}\n]{1,80}\}|\$\{?[A-Za-z_]\w{0,60}|%[A-Z_]{1,60}%|<[A-Za-z_][\w -]{0,40}>|\[[A-Z_ ]{3,40}\])` +
        String.raw`|${MD_URL}${URL_QUERY}(?:\{\{?|\$\{?|<)[^}\n)>"']{0,40}?(?:${DATA_WORD})` +
        String.raw`|${EMBED_VERB}[^.\n]{0,100}\b(?:${DATA_WORD})[^.\n]{0,80}\b(?:in|into|to|as|inside)\b[^.\n]{0,30}${URL_WORD}` +
        String.raw`|https?:\/\/[^\s?#]{0,300}[?#]\S{0,300}?=\s+${FILLED_BY}[^.\n]{0,60}\b(?:${DATA_WORD})`,
      'i',
    ),
  },
  // ---- network and installs (P1) ----
  {
    id: 'network.curl',
    hints: ['curl'],
    family: 'network',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /(?:^|[\s;&|(`"'])curl\s+\S/,
  },
  {
    id: 'network.wget',
    hints: ['wget'],
    family: 'network',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /(?:^|[\s;&|(`"'])wget\s+\S/,
  },
  {
    id: 'network.script-request',
    hints: [
      'requests.',
      'urllib',
      'httpx.',
      'fetch(',
      'fetch (',
      'axios',
      'http.get',
      'https.get',
      'websocket',
      'socket.',
      'net.connect',
      'invoke-webrequest',
    ],
    family: 'network',
    level: 'P1',
    contexts: ['script'],
    re: /\brequests\.(?:get|post|put|request|Session)\b|\burllib(?:\.request|2)?\.(?:urlopen|Request)|\bhttpx\.\w+\(|\bfetch\s*\(\s*["'`]https?:|\bfetch\s*\(\s*\w*url\w*|\baxios\b|\bhttps?\.get\s*\(|\bnew\s+WebSocket\s*\(|\bsocket\.(?:socket|create_connection)\s*\(|\bnet\.connect\s*\(|\bInvoke-WebRequest\b/i,
  },
  {
    id: 'install.npm',
    hints: ['npm', 'npx', 'yarn', 'pnpm', 'bun ', 'bunx '],
    family: 'install',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /\b(?:npm\s+(?:install|i|add|ci)\b|npx\s+(?:-y\s+|--yes\s+)?[@\w]|yarn\s+(?:add|global\s+add)\b|pnpm\s+(?:add|install|dlx)\b|bunx?\s+(?:add|install)\b|bunx\s+(?:--?\S+\s+)*[@\w])/,
  },
  {
    id: 'install.pip',
    hints: [
      'pip install',
      'pip3 install',
      'uv ',
      'pipx ',
      'poetry add',
      'gem install',
      'cargo install',
      'go install',
      'uvx ',
    ],
    family: 'install',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /\b(?:uvx\s+(?:--\S+\s+)*(?=[@\w])|pip3?\s+install|python3?\s+-m\s+pip\s+install|uv\s+(?:pip\s+install|add|tool\s+install)|pipx\s+(?:install|run)|poetry\s+add|gem\s+install|cargo\s+install|go\s+install)\b/,
  },
  {
    id: 'install.git-clone',
    hints: ['git clone'],
    family: 'install',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /\bgit\s+clone\b/,
  },
  {
    id: 'install.system',
    hints: ['brew', 'apt', 'yum', 'dnf', 'pacman', 'zypper', 'apk', 'choco', 'winget', 'scoop', 'snap'],
    family: 'install',
    level: 'P1',
    contexts: [...SHELLISH, 'script'],
    re: /\b(?:brew|apt|apt-get|yum|dnf|pacman|zypper|apk|choco|winget|scoop|snap)\s+(?:-\S+\s+)*(?:install|add|-S)\b/,
  },
  {
    id: 'exec.subprocess',
    hints: ['subprocess', 'deno.', 'bun.spawn', 'processbuilder'],
    family: 'code-execution',
    level: 'P1',
    contexts: ['script'],
    // A one-liner that starts processes runs a shell command inline: as dangerous as os.system or child_process.
    inlineProgram: 'P0',
    re: /\bsubprocess\.(?:run|call|Popen|check_output|check_call)\b|\bDeno\.(?:run|Command)\b|\bBun\.spawn\b|\bProcessBuilder\b/,
  },
  // ---- remote instructions (P1) ----
  {
    id: 'remote.fetch-and-follow',
    hints: ['http'],
    family: 'remote-instructions',
    level: 'P1',
    contexts: ['prose', 'inline', 'comment'],
    re: /\b(?:fetch|download|read|load|retrieve|get|open|visit|curl|pull)\b[^\n]{0,80}https?:\/\/\S+[^\n]{0,80}\b(?:follow|obey|execute|run|apply|do what)\b[^\n]{0,40}\b(?:instructions?|steps|commands?|directions|rules|prompt|says)\b|\b(?:follow|obey|execute|apply|run)\b[^\n]{0,40}\b(?:instructions?|steps|commands?|prompt|rules|directions)\b[^\n]{0,40}\b(?:at|from|in|on|found at|hosted at)\s+<?https?:\/\//i,
  },
  {
    id: 'remote.script-fetch-exec',
    hints: ['http', 'exec'],
    family: 'remote-instructions',
    level: 'P1',
    contexts: ['script'],
    re: /(?:import|require)\s*\(\s*["'`]https?:|\bimportlib\b[^\n]*https?:|\bexec\s*\(\s*(?:requests|urllib)/,
  },
  // ---- secrets and supply chain (P1) ----
  {
    id: 'secrets.hardcoded',
    family: 'exfiltration',
    level: 'P1',
    hints: [
      'akia',
      'ghp_',
      'gho_',
      'ghu_',
      'ghs_',
      'ghr_',
      'github_pat_',
      'sk-',
      'xox',
      'private key',
      'aiza',
      'glpat-',
    ],
    contexts: ['shell', 'script', 'inline', 'example', 'prose'],
    re: /\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}|\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}|\bxox[abpors]-[A-Za-z0-9-]{10,}|-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----|\bAIza[0-9A-Za-z_-]{35}\b|\bglpat-[A-Za-z0-9_-]{20,}/,
  },
  {
    id: 'install.registry-redirect',
    family: 'install',
    level: 'P1',
    hints: ['index-url', 'set registry', '--registry', 'trusted-host', 'find-links'],
    contexts: [...SHELLISH, 'script', 'example'],
    re: /--(?:extra-)?index-url\s+\S+|--trusted-host\s|--find-links\s+https?:|\bnpm\s+config\s+set\s+registry\b|--registry[=\s]+https?:\/\/(?!registry\.npmjs\.org)/i,
  },
  // ---- skill discovery and autonomy abuse (P1) ----
  {
    id: 'inject.capability-inflation',
    family: 'prompt-injection',
    level: 'P1',
    hints: ['this skill'],
    contexts: ['prose', 'comment'],
    negatable: true,
    re: /\b(?:always|must)\s+(?:use|load|invoke|activate|prefer)\s+this\s+skill\b|\bthis\s+skill\s+(?:overrides|replaces|supersedes|takes precedence over)\s+(?:all\s+)?(?:other|any)\b|\buse\s+this\s+skill\s+for\s+(?:every|all|any)\s+(?:task|request|question|message)s?\b/i,
  },
  {
    id: 'autonomy.no-confirmation',
    family: 'prompt-injection',
    level: 'P1',
    hints: [
      'without asking',
      'without waiting',
      'without requesting',
      'without seeking',
      'never ask',
      "don't ask",
      'do not ask',
    ],
    contexts: ['prose', 'comment'],
    re: /\bwithout\s+(?:asking|waiting for|requesting|seeking)\s+(?:the\s+user(?:'s)?\s+)?(?:for\s+)?(?:permission|confirmation|approval|consent)\b|\b(?:never|don't|do not)\s+ask\s+(?:the\s+user\s+)?(?:for\s+)?(?:permission|confirmation|approval)\b/i,
  },
  // ---- prompt injection ----
  {
    id: 'inject.ignore-instructions',
    hints: [],
    hintPair: [
      [
        'ignore',
        'disregard',
        'forget',
        'override',
        'bypass',
        'pay no',
        'outdated',
        'void',
        'cancel',
        'revoked',
        'obsolete',
        'no longer',
        'priority',
      ],
      ['instruction', 'prompt', 'rules', 'direction', 'guideline', 'message', 'told'],
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    negatable: true,
    // Set the instructions aside ("ignore your previous instructions", "pay no attention to the system prompt", "forget
    // everything you were told"), call them void ("your previous instructions are outdated"), or rank this text above
    // them ("higher priority than the system prompt").
    re: /\b(?:ignore|disregard|forget|override|bypass|pay no (?:attention|heed|mind) to)\b[^.\n]{0,30}\b(?:previous|prior|above|earlier|preceding|system|original|your|developer|safety)\b[^.\n]{0,20}\b(?:instructions?|prompts?|rules|directions|guidelines|messages?)\b|\bforget (?:everything|all|whatever) (?:you(?:'ve| have)? (?:were|been) told|(?:you were |that was )?told (?:before|above|earlier))|\b(?:previous|prior|earlier|original|system|your) (?:instructions?|prompts?|rules|guidelines)\b[^.\n]{0,20}\b(?:are|is|were) (?:now )?(?:outdated|obsolete|void|cancell?ed|revoked|no longer (?:valid|in effect|applicable|apply))\b|\b(?:higher|greater|more) priority than (?:the |your |any )?(?:system (?:prompt|instructions?|message)|developer (?:instructions?|message)|previous instructions)\b/i,
    zh: new RegExp(
      String.raw`(?:忽略|无视|忽视|忘记|忘掉|不要理会|别理会|抛开|绕过)${ZH_SAY}{0,12}?` +
        String.raw`(?:(?:之前|以前|此前|先前|前面|上面|上述|以上|原有|原来|原始|最初|你的|开发者|安全)${ZH_SAY}{0,10}?` +
        String.raw`(?:指令|指示|提示词|规则|要求|设定|约束|准则)|系统(?:提示|指令|规则|设定))`,
    ),
  },
  {
    id: 'inject.conceal',
    hints: ['hidden from', 'secret from'],
    hintPair: [
      ['user'],
      ['tell', 'inform', 'notif', 'mention', 'reveal', 'alert', 'let', 'without', 'hide', 'must', 'should'],
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    re: /\b(?:do not|don't|never)\s+(?:tell|inform|notify|mention (?:this|it) to|reveal (?:this|it) to|alert|let)\s+(?:the\s+)?user(?:s)?\b(?!\s+(?:wait|down|guess))|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user|\bhide\s+(?:this|it|these|that|your actions?)\b[^.\n]{0,20}\bfrom\s+(?:the\s+)?user|\bkeep\s+(?:this|it)\s+(?:secret|hidden)\s+from\b|\bthe user (?:must|should) not (?:know|see|find out)\b/i,
    zh: /(?:不要|别|不得|切勿|不能)(?:告诉|告知|通知|提醒|让)(?:用户|使用者)(?!等|失望|猜)|瞒着(?:用户|使用者)|对(?:用户|使用者)(?:隐瞒|保密)|不(?:要)?让(?:用户|使用者)(?:知道|发现|看到)|(?:用户|使用者)不(?:应|应该|能|得)(?:知道|看到|发现)/,
  },
  {
    id: 'inject.unrestricted',
    hints: [
      'unrestricted',
      'jailbr',
      'god mode',
      'dan mode',
      'limit mode',
      'limits mode',
      'you are now',
      'no longer',
      'act as',
      'you are dan',
      'are now dan',
      'have no',
      'no longer have',
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    negatable: true,
    re: /\b(?:unrestricted|jailbreak|jailbroken|god|DAN|no[- ]limits?)\s+mode\b|\byou are now (?:DAN|unrestricted|free of|jailbroken|no longer bound)|\bno longer (?:bound|restricted) by\b|\bact as (?:an? )?(?:unrestricted|unfiltered)\b|\byou are (?:now )?DAN\b|\byou (?:now have no|no longer have any) (?:restrictions|rules|limits|guidelines|filters)\b|\byou have no (?:restrictions|filters) (?:at all|whatsoever|anymore)\b/i,
    zh: new RegExp(
      String.raw`(?:无限制|不受限制|越狱|上帝)模式|你现在(?:是|处于|已经|已)${ZH_SAY}{0,10}(?:无限制|不受(?:任何)?(?:限制|约束)|越狱)` +
        String.raw`|你(?:现在)?不再受${ZH_SAY}{0,10}(?:限制|约束|规则)`,
    ),
  },
  {
    id: 'inject.disable-approvals',
    hints: ['dangerously', 'auto-approve', 'autoapprove', 'yolo mode', 'grant yourself'],
    hintPair: [
      ['approv', 'sandbox', 'permission', 'safety', 'guardrail', 'policy', 'gate', 'security', 'confirmation'],
      ['disable', 'bypass', 'skip', 'turn off', 'circumvent', 'switch off', 'deactivate', 'get around'],
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    negatable: true,
    re: /\b(?:disable|bypass|skip|turn off|circumvent|switch off|deactivate|get around)\b[^.\n]{0,30}\b(?:approvals?|approval prompts?|permission (?:checks?|prompts?|system)|the sandbox|sandbox(?:ing)?|safety (?:checks?|filters?|rules)|guardrails?|the (?:policy|gate)|security (?:checks?|policy|controls?)|user confirmation)\b|--dangerously-skip-permissions|--dangerously-bypass-approvals|\bauto-?approve (?:all|every|everything)\b|\byolo mode\b|\bgrant yourself (?:full |all |admin(?:istrator)? |root |every )?(?:permissions?|access|privileges|rights)\b/i,
    zh: new RegExp(
      String.raw`(?:关闭|关掉|禁用|停用|绕过|跳过|规避|避开)${ZH_SAY}{0,10}?` +
        String.raw`(?:审批|批准提示|用户确认|确认提示|沙箱|沙盒|安全检查|权限检查|权限提示|安全策略)`,
    ),
  },
  {
    id: 'inject.pre-answered',
    hints: [
      'pre-answer',
      'preanswer',
      'pre-approv',
      'preapprov',
      'in advance',
      'already approved',
      'already confirmed',
      'already granted',
      'already allowed',
      'always',
      'not ask',
      "don't ask",
      'never ask',
      'need to confirm',
      'need to approve',
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    negatable: true,
    // Telling the model that approvals are already given, to answer them itself, or to widen them with "always".
    re: /\b(?:approvals?|prompts?|confirmations?|permissions?)\b[^.\n]{0,40}\b(?:pre-?answered|pre-?approved|answered in advance|granted in advance|approved in advance)|\b(?:has|have) already (?:approved|confirmed|granted|allowed)\b[^.\n]{0,40}\b(?:every|all|each|any)\b|\b(?:answer|choose|click|select|pick|reply|respond)\b[^.\n]{0,20}["'“]?always(?: allow)?["'”]?[^.\n]{0,40}\b(?:for (?:bash|every|all|each)|so (?:the user|you) (?:is|are) not|to every|every time)|\b(?:do not|don't|never) ask (?:the user )?(?:before|for (?:approval|permission|confirmation))|\b(?:user|you) (?:does not|doesn't|do not|don't|need not) need to (?:confirm|approve)/i,
    zh: new RegExp(
      String.raw`(?:用户|他们|我)已(?:经)?(?:提前|预先|事先)?(?:批准|同意|授权|确认)(?:了)?${ZH_SAY}{0,10}(?:所有|全部|每[个一条项])` +
        String.raw`|(?:不要|无需|不需要|不用|不必)(?:再)?(?:向用户)?(?:请求|征求|询问|等待)(?:用户)?(?:的)?(?:确认|批准|同意|许可)` +
        String.raw`|(?:提前|预先|事先)(?:批准|授权)(?:了)?(?:所有|全部)`,
    ),
  },
  {
    id: 'inject.settings-change',
    hints: ['network', 'policy.ceiling', 'settings.json', 'knack settings', "knack's settings", 'sandbox'],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ALL,
    mentionable: true,
    negatable: true,
    // Telling the model to change Knack's own settings: turn the network on, raise the ceiling, switch the sandbox off.
    re: /\b(?:turn|switch|flip)\s+(?:the\s+)?network\s+on\b|\b(?:turn on|switch on|enable)\s+(?:the\s+)?network(?:\s+access)?\s+(?:in|through|via)\b[^.\n]{0,30}\bsettings\b|\b(?:set|turn on|switch on|enable|flip|change)\b[^.\n]{0,60}(?:\bpolicy\.ceiling\b|\.workbuddy\/settings\.json|\bknack(?:'s)? settings\b)|\b(?:turn off|switch off|disable)\s+(?:the\s+)?(?:knack\s+)?sandbox\b[^.\n]{0,30}\bsettings\b/i,
  },
  {
    id: 'inject.policy-change',
    hints: [],
    hintPair: [
      ['settings.json', 'policy', 'permission', 'allowlist', 'ceiling', 'approval'],
      ['modify', 'edit', 'change', 'rewrite', 'update', 'append', 'write', 'add', 'grant', 'widen', 'raise'],
    ],
    family: 'prompt-injection',
    level: 'P0',
    contexts: ['prose', 'inline', 'comment', 'shell', 'script'],
    mentionable: true,
    negatable: true,
    re: /\b(?:modify|edit|change|rewrite|update|append to|write to|add (?:yourself|itself|this skill|it) to|grant yourself|widen|raise)\b[^.\n]{0,40}(?:\.workbuddy\/settings\.json|\bpolicy\.ceiling\b|\b(?:your|the agent's|knack's|its own) (?:permissions|policy|allowlist|ceiling)\b|\bpermission (?:allowlist|rules)\b|\bapproval (?:rules|settings)\b)/i,
  },
  {
    id: 'inject.agent-config',
    hints: [
      '.bashrc',
      '.zshrc',
      '.profile',
      '.bash_profile',
      '~/.claude/',
      '~/.agents/',
      '~/.workbuddy/',
      '.git/hooks/',
      'crontab',
    ],
    family: 'prompt-injection',
    level: 'P1',
    contexts: ['prose', 'inline', 'comment', 'shell', 'script'],
    negatable: true,
    re: /\b(?:append|add|write|insert|inject)\b[^.\n]{0,40}\b(?:to|into)\b[^.\n]{0,20}(?:~\/\.(?:bashrc|zshrc|profile|bash_profile)|~\/\.claude\/|~\/\.agents\/|~\/\.workbuddy\/|\.git\/hooks\/|crontab)/i,
  },
];

/**
 * The rule book with every field on every rule (undefined where a rule leaves one out), each made by one literal:
 * the matcher reads them all through one map, so a rule first hit on a real folder is never a shape its optimised
 * code has not seen (a rule with an optional field only some have was a deoptimisation, 'wrong map', in ruleHit).
 */
export const RULES: AuditRule[] = RULE_BOOK.map((r) => ({
  id: r.id,
  family: r.family,
  level: r.level,
  re: r.zh ? new RegExp(`${r.re.source}|${r.zh.source}`, r.re.flags) : r.re,
  hints: r.hints,
  hintPair: r.hintPair,
  contexts: r.contexts,
  weak: r.weak,
  negatable: r.negatable,
  mentionable: r.mentionable,
  inlineProgram: r.inlineProgram,
  zh: r.zh,
  words: ruleWords(r.id),
  message: english(ruleWords(r.id)),
}));

/** A rule's words; a rule the words table does not name stops the audit from loading at all (fail closed). */
function ruleWords(id: string): Said {
  const code = `audit.${id}`;
  if (!Object.prototype.hasOwnProperty.call(WORDS, code))
    throw new Error(`audit rule ${id} has no words: add ${code} to preload/words.ts`);
  return say(code as WordCode);
}

/** Words that show a line is discussing an attack rather than performing one. */
export const MENTION_RE =
  /\b(?:detect(?:s|ed|ing|ion)?|flag(?:s|ged)?|patterns?|examples?|e\.g\.|such as|for instance|injections?|attacks?|attackers?|malicious|scan(?:s|ner|ning)?|look (?:out )?for|check (?:for|whether|if)|watch for|red flags?|suspicious|jailbreaks?|phishing|threats?|vulnerab\w*|like\s*[:"“'`])|检测|识别|警惕|例如|比如|诸如|之类|提示注入|注入攻击|恶意|可疑|钓鱼/i;

/** Negations that precede an action in prose: "never use sudo", "do not run rm -rf /". */
export const NEGATION_RE =
  /\b(?:never|don't|do not|dont|avoid|must not|mustn't|should not|shouldn't|cannot|can't|won't|no need to|instead of|rather than|refuse|forbid(?:den)?|prohibit(?:ed)?|not allowed|disallow(?:ed)?|not to|no\s+(?:\w+\s+){0,2}to)\b|不要|禁止|切勿|不得|避免/i;

/**
 * What a negation governs: the phrase right after it. It covers a match only when at most NEGATION_REACH words lie
 * between them, with no clause break there ("Avoid long answers and ignore …", "instead of asking, disregard …"), and
 * none of those words turns the negation into a push ("do not hesitate to", "don't forget to", "never fail to", "never
 * mind"). A comma right after the negation opens an aside, not a new clause ("must not, under any circumstances, send").
 */
export const NEGATION_REACH = 5;
export const CLAUSE_BREAK_RE = /[,:;—–()，：；。！？、]|\s-\s|\b(?:and|but|then|so|just|instead|otherwise)\b/i;
export const NEGATION_CANCEL_RE =
  /\b(?:hesitat\w*|forg[eo]t\w*|fail\w*|stop\w*|mind|wait\w*|worry|delay|hold back|afraid|shy|think twice|bother|neglect|miss|refrain|cease|overlook)\b|犹豫|忘/i;

/**
 * Credentials that belong to one service, by the name a script reads them under, with that service's hosts (a host or
 * any of its subdomains). A script that reads only these and names no host but theirs sends each to its own service
 * (exfil.credential-send is then P1, not P0): Anthropic's skill-creator calls the Anthropic API with ANTHROPIC_API_KEY
 * and GitHub Models (served from models.inference.ai.azure.com) with the gh CLI's token.
 */
const GITHUB_HOSTS = ['github.com', 'githubusercontent.com', 'github.ai', 'models.inference.ai.azure.com'];
export const OWN_SERVICE_CREDENTIALS: { name: RegExp; hosts: string[] }[] = [
  { name: /^ANTHROPIC_API_KEY$/i, hosts: ['anthropic.com'] },
  { name: /^OPENAI_API_KEY$/i, hosts: ['openai.com'] },
  { name: /^(?:GITHUB_TOKEN|GH_TOKEN)$/i, hosts: GITHUB_HOSTS },
];
/** The gh CLI asked for its token (`gh auth token`, also as an argument list): a GitHub credential. */
export const GH_TOKEN_READ: { re: RegExp; hosts: string[] } = {
  re: /\bgh\b["'`,\s]+auth["'`,\s]+token\b/,
  hosts: GITHUB_HOSTS,
};
/** Ways to send that name no URL (sockets, mail, file copy): with one in the file, where a key goes is not known. */
export const URLLESS_CHANNEL_RE =
  /\b(?:nc|ncat|netcat|socat|telnet|scp|sftp|rsync|ftplib|smtplib|sendmail|sendBeacon|WebSocket|dgram|createConnection|create_connection|socket\.socket|net\.connect|tls\.connect)\b/i;

export const LEVEL_RANK: Record<Level, number> = { P2: 0, P1: 1, P0: 2 };
export const maxLevel = (a: Level, b: Level): Level => (LEVEL_RANK[a] >= LEVEL_RANK[b] ? a : b);

/** Bump when rules change: cached audits of an older rule book are redone. */
export const AUDITOR_VERSION = 'rules-32';
