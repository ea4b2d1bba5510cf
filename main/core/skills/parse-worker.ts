// Worker-thread entry for parse-pool: parses the SKILL.md heads it is given and posts the results back.
// Runs the same parser as the main thread (frontmatter.ts + manifest.ts): one parser, never two.
import { parentPort, workerData } from 'node:worker_threads';
import { parseSkillFile } from './manifest.js';

const { files } = workerData as { files: string[] };
parentPort?.postMessage(files.map((f) => parseSkillFile(f, { folderName: null })));
