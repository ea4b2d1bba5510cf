// Types for the afterPack hook (after-pack.mjs), for the packaging tests.
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}
export function electronBinaryPath(context: AfterPackContext): string;
export default function afterPack(context: AfterPackContext): Promise<void>;
