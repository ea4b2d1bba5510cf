// electron-builder afterPack hook: flip the fuses (packaging/fuses.mjs) on the packed Electron binary before signing.
import { join } from 'node:path';
import { flipFuses } from '@electron/fuses';
import { FUSES } from './fuses.mjs';

/** The Electron executable electron-builder just packed, per platform. */
export function electronBinaryPath(context) {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(context.appOutDir, `${name}.app`, 'Contents', 'MacOS', name);
    case 'win32':
      return join(context.appOutDir, `${name}.exe`);
    default:
      return join(context.appOutDir, context.packager.executableName);
  }
}

export default async function afterPack(context) {
  const binary = electronBinaryPath(context);
  await flipFuses(binary, FUSES);
  console.log(`  • fuses flipped on ${binary}`);
}
