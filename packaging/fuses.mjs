// Electron fuses for the packaged app, flipped by electron-builder's afterPack hook (packaging/after-pack.mjs):
// no running as plain Node, no NODE_OPTIONS, no --inspect, cookies encrypted, the app only from a verified app.asar.
import { FuseV1Options, FuseVersion } from '@electron/fuses';

export const FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: false,
  resetAdHocDarwinSignature: true,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
};
