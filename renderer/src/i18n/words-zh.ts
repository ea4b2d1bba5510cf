// The Chinese of every message main sends as words (preload/words.ts holds the codes and their English). The type
// makes a missing code a compile error; test/unit/renderer/words.test.tsx checks each says the same parameters.
import type { WordCode } from '../../../preload/contract';

export const wordsZh: Record<WordCode, string> = {
  loadNamed: '以 {{text}} 点名',
  loadTrigger: '触发词「{{trigger}}」匹配了「{{matched}}」',
  loadTriggerSynonym: '触发词「{{trigger}}」匹配了「{{matched}}」（同义词）',
  loadTriggerSkillSynonym: '触发词「{{trigger}}」匹配了「{{matched}}」（技能自带的同义词）',
  loadName: '技能名「{{trigger}}」匹配了「{{matched}}」',
  loadNameSynonym: '技能名「{{trigger}}」匹配了「{{matched}}」（同义词）',
  loadNameSkillSynonym: '技能名「{{trigger}}」匹配了「{{matched}}」（技能自带的同义词）',
  loadMatched: '与消息匹配',
  loadOver: '{{why}}；同样的词也匹配了{{overTier}}技能 {{over}}，由{{tier}}技能优先',
  loadDependency: '{{skill}} 需要它',
  loadModel: '模型请求加载',
  loadUser: '由你加载',
  loadRecovered: '会话保存后 SKILL.md 有改动',
  tierBuiltin: '内置',
  tierUser: '用户',
  tierProject: '项目',
};
