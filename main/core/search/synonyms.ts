// The built-in bilingual synonym table (commit/提交, review/审查, deploy/部署 …) shared by matching and search,
// and the parser for synonym groups that skills (or callers) add on top of it.
import { say, type Said } from '../base/index.js';

/** A group of phrases that mean the same thing; the first one is the group's canonical name. */
export type SynonymGroup = readonly string[];

/**
 * Built-in groups: everyday software-work vocabulary in English and Chinese (simplified and traditional).
 * Phrases are matched as whole words (Latin) or on word boundaries (Chinese), after normalisation and stemming.
 */
export const BUILTIN_SYNONYMS: readonly SynonymGroup[] = [
  ['commit', '提交', '签入', '簽入'],
  ['review', '审查', '審查', '评审', '評審', '审阅', '審閱', '检视', 'code review', '代码审查', '代碼審查'],
  ['deploy', '部署', '上线', '上線', 'ship', '发版', '發版'],
  ['release', '发布', '發佈', '发行', '發行'],
  ['test', '测试', '測試', 'tests', '单测', '單測', 'unit test', '单元测试', '單元測試'],
  ['bug', '缺陷', '错误', '錯誤', 'defect', '故障', 'bugfix'],
  ['fix', '修复', '修復', '修正', '修好'],
  ['debug', '调试', '調試', '排查', '除错', '除錯'],
  ['refactor', '重构', '重構'],
  ['document', '文档', '文檔', 'docs', 'documentation'],
  ['database', '数据库', '數據庫', '資料庫', 'db'],
  ['migration', '迁移', '遷移', 'migrate'],
  ['branch', '分支'],
  ['merge', '合并', '合併'],
  ['pull request', 'pr', '拉取请求', '拉取請求', '合并请求', '合併請求', 'merge request', 'mr'],
  ['rollback', '回滚', '回滾', 'revert', '回退'],
  ['config', '配置', 'configuration', '設定'],
  ['dependency', '依赖', '依賴', 'dependencies'],
  ['security', '安全'],
  ['vulnerability', '漏洞'],
  ['performance', '性能', '效能'],
  ['log', '日志', '日誌', 'logs'],
  ['build', '构建', '構建', '编译', '編譯'],
  ['install', '安装', '安裝'],
  ['plan', '计划', '計劃', '规划', '規劃'],
  ['skill', '技能'],
  ['create', '创建', '創建', '新建'],
  ['error message', '报错', '報錯'],
  ['changelog', '变更日志', '變更日誌', '更新日志', '更新日誌'],
  ['permission', '权限', '權限'],
  ['search', '搜索', '搜尋', '查找'],
  ['frontend', '前端'],
  ['backend', '后端', '後端'],
  ['api', '接口', '介面'],
];

/**
 * Parse synonym groups as a skill may write them in its frontmatter:
 * a list of groups (each a list of strings or one `a, b, c` string), or one `a=b=c; d=e` string.
 * Returns the usable groups (at least two distinct non-empty phrases) and, for the rest, which group and why in words.
 */
export function parseSynonymGroups(
  raw: unknown,
  maxGroups = 50,
): { groups: string[][]; problems: { group?: number; words: Said }[] } {
  const groups: string[][] = [];
  const problems: { group?: number; words: Said }[] = [];
  let items: unknown[];
  if (typeof raw === 'string') items = raw.split(';');
  else if (Array.isArray(raw)) items = raw;
  else if (raw && typeof raw === 'object')
    items = Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, ...(Array.isArray(v) ? v : [v])]);
  else return { groups, problems: raw === undefined || raw === null ? [] : [{ words: say('diag.synonymsList') }] };
  items.forEach((item, i) => {
    let phrases: unknown[];
    if (typeof item === 'string') phrases = item.split(/[=,，]/);
    else if (Array.isArray(item)) phrases = item;
    else {
      problems.push({ group: i, words: say('diag.synonymsGroup') });
      return;
    }
    const clean = [
      ...new Set(
        phrases
          .filter((p): p is string => typeof p === 'string')
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ];
    if (clean.length < 2) {
      if (String(item).trim()) problems.push({ group: i, words: say('diag.synonymsTwo') });
      return;
    }
    if (groups.length >= maxGroups) {
      problems.push({ group: i, words: say('diag.synonymsMany', { max: maxGroups }) });
      return;
    }
    groups.push(clean.slice(0, 20));
  });
  return { groups, problems };
}
