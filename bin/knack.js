#!/usr/bin/env node
// The `knack` command.
import { main } from './cli-entry.js';

process.exitCode = await main(process.argv.slice(2));
